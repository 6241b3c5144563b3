/**
 * The Node page (`#/node`): the catching-up banner, status and health, the miner (reward
 * account, switches, threads) and its last hour, (in the desktop app) the data folder, the
 * peers, the private entities (this node's key, the pinned entities, "Trust an entity"), the
 * node's settings with "Restart node", the live height of every chain, and the
 * node's log.
 * @module
 */
import { lazy, Suspense } from "react";
import { useServices } from "../../../services/services.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { CatchUpBanner } from "../components/CatchUpBanner.tsx";
import { ChainTable } from "../components/ChainTable.tsx";
import { DesktopFolders } from "../components/DesktopFolders.tsx";
import { MiningControl } from "../components/MiningControl.tsx";
import { NodeLog } from "../components/NodeLog.tsx";
import { NodeSettings } from "../components/NodeSettings.tsx";
import { NodeStatus } from "../components/NodeStatus.tsx";
import { PeersPanel } from "../components/PeersPanel.tsx";
import { PrivatePanel } from "../components/PrivatePanel.tsx";

// The charting library is large: loaded with the charts, not with the app.
const MiningCharts = lazy(() =>
  import("../components/MiningCharts.tsx").then((m) => ({ default: m.MiningCharts })),
);

export function NodePage() {
  const { desktop } = useServices();
  return (
    <>
      <PageTitle>Node</PageTitle>
      <CatchUpBanner />
      <div className="grid">
        <NodeStatus />
        <MiningControl />
        <Suspense fallback={<p>Loading the charts…</p>}>
          <MiningCharts />
        </Suspense>
        {desktop === null ? null : <DesktopFolders desktop={desktop} />}
        <PeersPanel />
        <PrivatePanel />
        <NodeSettings />
      </div>
      <ChainTable />
      <NodeLog />
    </>
  );
}
