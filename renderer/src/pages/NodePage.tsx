/**
 * The Node page: status and health, the live height of every chain, the miner, and (in the
 * desktop app) the data folder.
 * @module
 */
import type { AppConfig } from "../api/appConfig.ts";
import type { EventSourceLike } from "../api/headerStream.ts";
import type { NodeClient } from "../api/nodeClient.ts";
import { ChainTable } from "../components/node/ChainTable.tsx";
import { DesktopFolders } from "../components/node/DesktopFolders.tsx";
import { MiningControl } from "../components/node/MiningControl.tsx";
import { NodeStatus } from "../components/node/NodeStatus.tsx";
import { PageTitle } from "../components/PageTitle.tsx";
import type { DesktopApi } from "../desktop/desktopBridge.ts";
import { useChainHeights } from "../node/useChainHeights.ts";

export type NodePageProps = {
  readonly client: NodeClient;
  readonly config: AppConfig;
  readonly desktop: DesktopApi | null;
  readonly createEventSource: (url: string) => EventSourceLike;
};

export function NodePage({ client, config, desktop, createEventSource }: NodePageProps) {
  const live = useChainHeights(client, createEventSource);
  return (
    <>
      <PageTitle>Node</PageTitle>
      <div className="grid">
        <NodeStatus client={client} config={config} />
        <MiningControl client={client} />
        {desktop === null ? null : <DesktopFolders desktop={desktop} />}
      </div>
      <ChainTable live={live} />
    </>
  );
}
