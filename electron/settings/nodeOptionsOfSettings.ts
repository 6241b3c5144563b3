/**
 * The node's options from the app's saved settings (settings.json), in one place for the
 * desktop's main process and the headless launcher's `--settings FILE`: both start the
 * node with them and read them again on every restart (nodeSupervisor.ts `reload`), so
 * settings saved on the Node page apply on "Restart node" (docs/desktop.md §3.4).
 * @module
 */
import type { AppSettings } from "../ipc/contract.ts";
import type { HostedNodeOptions } from "../nodeHost.ts";

/** What the host adds to the settings: its default data folder and its own parts. */
export type NodeHostParts = Omit<
  HostedNodeOptions,
  "network" | "dataDir" | "port" | "mining" | "backup" | "restart"
> & {
  /** The data folder when the settings name none. */
  readonly defaultDataDir: string;
};

export function nodeOptionsOfSettings(s: AppSettings, host: NodeHostParts): HostedNodeOptions {
  const { defaultDataDir, ...parts } = host;
  return {
    ...parts,
    network: s.network,
    dataDir: s.dataDir ?? defaultDataDir,
    host: parts.host ?? "127.0.0.1",
    port: s.port,
    // Mine on demand is the app's default on development networks without a reward account.
    mining: {
      enabled: s.miningOnStart,
      threads: s.miningThreads,
      onDemand: "auto",
      apiEnabled: s.miningApi,
    },
    // The public backup API needs a folder: the one chosen for the app's backups.
    backup:
      s.backupApi && s.backupDir !== null
        ? { apiEnabled: true, directory: s.backupDir }
        : undefined,
  };
}
