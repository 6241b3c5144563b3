/**
 * The Node page's data as query options: one factory per endpoint, with its key and its
 * polling interval (each view polls only what it shows, while it shows it); in the desktop
 * app, what the page reads and changes through the desktop bridge (the app's facts, its
 * settings, opening a folder) as queries and mutations under `["desktop", …]`. The app API's
 * routes are called through their contract entries (`api/appEndpoints.ts`, `callEndpoint`).
 * @module
 */
import { mutationOptions, type QueryClient, queryOptions, skipToken } from "@tanstack/react-query";
import type { AppSettings, SettingsPatch } from "../../../../electron/ipc/contract.ts";
import { sharedEndpoints as app } from "../../api/appEndpoints.ts";
import { unwrap } from "../../api/clientFailure.ts";
import { callEndpoint } from "../../api/endpoint.ts";
import type { MiningChange } from "../../api/miningStatus.ts";
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
    queryFn: () => unwrap(callEndpoint(client, app.mining, {})),
    refetchInterval: MINING_EVERY_MS,
  });
}

/** A change of the mining switch, threads or reward account; the answer is the new state. */
export function setMiningMutation(client: NodeClient, queries: QueryClient) {
  return mutationOptions({
    mutationFn: (change: MiningChange) => unwrap(callEndpoint(client, app.setMining, {}, change)),
    onSuccess: (next) => queries.setQueryData(queryKeys.mining, next),
    // A refusal can still have changed something (e.g. threads): show the node's truth.
    onError: () => queries.invalidateQueries({ queryKey: queryKeys.mining }),
  });
}

const PEERS_EVERY_MS = 2000;
const PEERS_KEY = ["node", "peers"] as const;

/** The peers and their sync status (`/app/api/peers`, docs/p2p.md). */
export function peersQuery(client: NodeClient) {
  return queryOptions({
    queryKey: PEERS_KEY,
    queryFn: () => unwrap(callEndpoint(client, app.peers, {})),
    refetchInterval: PEERS_EVERY_MS,
  });
}

/** Adding (`add`) or removing a peer by its address; the list is asked again after either. */
export function changePeerMutation(
  client: NodeClient,
  queries: QueryClient,
  how: "add" | "remove",
) {
  return mutationOptions({
    mutationFn: (address: string) =>
      how === "add"
        ? unwrap(callEndpoint(client, app.addPeer, {}, { address }))
        : unwrap(callEndpoint(client, app.removePeer, { address })),
    onSettled: () => queries.invalidateQueries({ queryKey: PEERS_KEY }),
  });
}

const PRIVATE_EVERY_MS = 5000;
const PRIVATE_KEY = ["node", "private"] as const;

export type PinInput = { readonly name: string; readonly publicKey: string };

/** This node's `/private` entity and the entities it trusts (`/app/api/private`). */
export function privateEntitiesQuery(client: NodeClient) {
  return queryOptions({
    queryKey: PRIVATE_KEY,
    queryFn: () => unwrap(callEndpoint(client, app.privateEntities, {})),
    refetchInterval: PRIVATE_EVERY_MS,
  });
}

/** Checking an entity's key before trusting it: its fingerprint, nothing stored. */
export function checkPinMutation(client: NodeClient) {
  return mutationOptions({
    mutationFn: (pin: PinInput) => unwrap(callEndpoint(client, app.checkPin, {}, pin)),
  });
}

/** Trusting (pinning) an entity's key; the list is asked again. */
export function trustPinMutation(client: NodeClient, queries: QueryClient) {
  return mutationOptions({
    mutationFn: (pin: PinInput) => unwrap(callEndpoint(client, app.pin, {}, pin)),
    onSettled: () => queries.invalidateQueries({ queryKey: PRIVATE_KEY }),
  });
}

/** Removing an app pin; the list is asked again. */
export function removePinMutation(client: NodeClient, queries: QueryClient) {
  return mutationOptions({
    mutationFn: (name: string) => unwrap(callEndpoint(client, app.unpin, { name })),
    onSettled: () => queries.invalidateQueries({ queryKey: PRIVATE_KEY }),
  });
}

const HISTORY_EVERY_MS = 10_000;
const STATUS_EVERY_MS = 3000;
const LOG_EVERY_MS = 3000;

export function miningHistoryQuery(client: NodeClient) {
  return queryOptions({
    queryKey: queryKeys.miningHistory,
    queryFn: () => unwrap(callEndpoint(client, app.miningHistory, {})),
    refetchInterval: HISTORY_EVERY_MS,
  });
}

/** The node's facts and what it catches up on (the banner polls it). */
export function nodeStatusQuery(client: NodeClient) {
  return queryOptions({
    queryKey: queryKeys.nodeStatus,
    queryFn: () => unwrap(callEndpoint(client, app.nodeStatus, {})),
    refetchInterval: STATUS_EVERY_MS,
  });
}

export function nodeLogQuery(client: NodeClient, level: LogLevel) {
  return queryOptions({
    queryKey: queryKeys.nodeLog(level),
    // The last 200 lines at `level` or above: what the panel shows.
    queryFn: () => unwrap(callEndpoint(client, app.nodeLog, { level, limit: 200 })),
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
