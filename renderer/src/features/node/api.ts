/**
 * The Node page's data as query options: one factory per endpoint, with its key and its
 * polling interval (each view polls only what it shows, while it shows it); in the desktop
 * app, what the page reads and changes through the desktop bridge (the app's facts, its
 * settings, opening a folder) as queries and mutations under `["desktop", …]`.
 * @module
 */
import { mutationOptions, type QueryClient, queryOptions, skipToken } from "@tanstack/react-query";
import type { AppSettings, SettingsPatch } from "../../../../electron/ipc/contract.ts";
import { unwrap } from "../../api/clientFailure.ts";
import type { NodeClient } from "../../api/nodeClient.ts";
import type { LogLevel } from "../../api/nodeStatus.ts";
import { unwrapBridge } from "../../desktop/bridgeFailure.ts";
import type { DesktopApi } from "../../desktop/desktopBridge.ts";
import { queryKeys } from "../../services/queryClient.ts";
import type { RestartWatch } from "../../services/restartWatch.ts";

const HEALTH_EVERY_MS = 5000;
const INFO_EVERY_MS = 60_000;
const MINING_EVERY_MS = 2000;

export function healthQuery(client: NodeClient) {
  return queryOptions({
    queryKey: queryKeys.nodeHealth,
    queryFn: () => unwrap(client.healthCheck()),
    refetchInterval: HEALTH_EVERY_MS,
    // A failed check is news to show at once, not to hide behind a retry.
    retry: false,
  });
}

export function infoQuery(client: NodeClient) {
  return queryOptions({
    queryKey: queryKeys.nodeInfo,
    queryFn: () => unwrap(client.info()),
    refetchInterval: INFO_EVERY_MS,
  });
}

export function miningQuery(client: NodeClient) {
  return queryOptions({
    queryKey: queryKeys.mining,
    queryFn: () => unwrap(client.mining()),
    refetchInterval: MINING_EVERY_MS,
  });
}

const HISTORY_EVERY_MS = 10_000;
const STATUS_EVERY_MS = 3000;
const LOG_EVERY_MS = 3000;

export function miningHistoryQuery(client: NodeClient) {
  return queryOptions({
    queryKey: queryKeys.miningHistory,
    queryFn: () => unwrap(client.miningHistory()),
    refetchInterval: HISTORY_EVERY_MS,
  });
}

/** The node's facts and what it catches up on (the banner polls it). */
export function nodeStatusQuery(client: NodeClient) {
  return queryOptions({
    queryKey: queryKeys.nodeStatus,
    queryFn: () => unwrap(client.nodeStatus()),
    refetchInterval: STATUS_EVERY_MS,
  });
}

export function nodeLogQuery(client: NodeClient, level: LogLevel) {
  return queryOptions({
    queryKey: queryKeys.nodeLog(level),
    queryFn: () => unwrap(client.nodeLog(level)),
    refetchInterval: LOG_EVERY_MS,
  });
}

/** "Restart node" (`POST /app/api/node/restart`); the restart watch follows it once accepted. */
export function restartNodeMutation(restart: RestartWatch) {
  return mutationOptions({
    mutationFn: () => unwrap(restart.restart()),
  });
}

/** Query keys of what the desktop bridge answers (the desktop app only). */
export const desktopKeys = {
  appInfo: ["desktop", "app-info"] as const,
  /** The app's settings file as saved. */
  settings: ["desktop", "settings"] as const,
  /** The settings file as the running node read it (see {@link runningSettingsQuery}). */
  runningSettings: ["desktop", "settings", "running"] as const,
};

// The bridge's answers are this computer's own: a failed one would fail again at once.
const BRIDGE = { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false } as const;

/** The app's version, data folder and log file; fixed while the app runs (none in a browser). */
export function appInfoQuery(desktop: DesktopApi | null) {
  return queryOptions({
    queryKey: desktopKeys.appInfo,
    queryFn: desktop === null ? skipToken : () => unwrapBridge(desktop.appInfo()),
    staleTime: Number.POSITIVE_INFINITY,
    ...BRIDGE,
  });
}

/** The app's settings as saved (`<userData>/settings.json`), read each time the form shows. */
export function savedSettingsQuery(desktop: DesktopApi) {
  return queryOptions({
    queryKey: desktopKeys.settings,
    queryFn: () => unwrapBridge(desktop.readSettings()),
    staleTime: 0,
    ...BRIDGE,
  });
}

/**
 * The settings the running node started with: the file as read when the form shows, and again
 * when the node is back from a restart (every query is then invalidated), for the app's
 * supervisor reads the file when it restarts the node. Not written by a save.
 */
export function runningSettingsQuery(desktop: DesktopApi) {
  return queryOptions({
    queryKey: desktopKeys.runningSettings,
    queryFn: () => unwrapBridge(desktop.readSettings()),
    staleTime: 0,
    gcTime: 0,
    ...BRIDGE,
  });
}

/** "Save settings": the answer is the file as saved, which the form shows from then on. */
export function saveSettingsMutation(desktop: DesktopApi, queries: QueryClient) {
  return mutationOptions({
    mutationFn: (patch: SettingsPatch) => unwrapBridge(desktop.writeSettings(patch)),
    onSuccess: (saved: AppSettings) => queries.setQueryData(desktopKeys.settings, saved),
  });
}

/** Opens one of the app's folders in the file manager (offered in the desktop app only). */
export function openFolderMutation(desktop: DesktopApi | null) {
  return mutationOptions({
    mutationFn: (path: string) =>
      desktop === null
        ? Promise.reject(new Error("there is no file manager to open in a browser"))
        : unwrapBridge(desktop.openFolder(path)),
  });
}
