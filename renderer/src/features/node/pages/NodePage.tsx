/**
 * The Node page (`#/node`): status and health, the miner, (in the desktop app) the data
 * folder, and the live height of every chain.
 * @module
 */
import { useServices } from "../../../services/services.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { ChainTable } from "../components/ChainTable.tsx";
import { DesktopFolders } from "../components/DesktopFolders.tsx";
import { MiningControl } from "../components/MiningControl.tsx";
import { NodeStatus } from "../components/NodeStatus.tsx";
import { PeersPanel } from "../components/PeersPanel.tsx";

export function NodePage() {
  const { desktop } = useServices();
  return (
    <>
      <PageTitle>Node</PageTitle>
      <div className="grid">
        <NodeStatus />
        <MiningControl />
        {desktop === null ? null : <DesktopFolders desktop={desktop} />}
        <PeersPanel />
      </div>
      <ChainTable />
    </>
  );
}
