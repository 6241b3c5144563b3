/**
 * The backup page's server data (`/app/api/backup/*`, docs/desktop.md §3.5): the calls of its
 * contract entries (`endpoints.ts`, over the parsers of `backupWire.ts`), query options with
 * their keys and polling, and mutation options for every change (settings, back up now,
 * delete, check, restore; in the desktop app, the folder picker and opening the folder through
 * the desktop bridge).
 * @module
 */
import { mutationOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import { unwrap } from "../../api/clientFailure.ts";
import { callEndpoint } from "../../api/endpoint.ts";
import type { NodeClient } from "../../api/nodeClient.ts";
import { unwrapBridge } from "../../desktop/bridgeFailure.ts";
import type { DesktopApi } from "../../desktop/desktopBridge.ts";
import type { RestartWatch } from "../../services/restartWatch.ts";
import type { BackupSettingsPatch, Which } from "./backupWire.ts";
import { backupEndpoints } from "./endpoints.ts";

/** The backup page's endpoints, each a call of its contract entry. */
export const backupCalls = {
  overview: (c: NodeClient) => callEndpoint(c, backupEndpoints.overview, {}),
  settings: (c: NodeClient, patch: BackupSettingsPatch) =>
    callEndpoint(c, backupEndpoints.settings, {}, patch),
  /** The new job's id. */
  start: (c: NodeClient, includeState: boolean) =>
    callEndpoint(c, backupEndpoints.start, {}, { includeState }),
  job: (c: NodeClient, id: string) => callEndpoint(c, backupEndpoints.job, { id }),
  list: (c: NodeClient) => callEndpoint(c, backupEndpoints.list, {}),
  /** The deleted backup's id. */
  remove: (c: NodeClient, id: string) => callEndpoint(c, backupEndpoints.remove, {}, { id }),
  // Checking and restoring read every file back: the entries allow them 300 s.
  check: (c: NodeClient, which: Which) => callEndpoint(c, backupEndpoints.check, {}, which),
  restore: (c: NodeClient, which: Which) => callEndpoint(c, backupEndpoints.restore, {}, which),
};

export const backupKeys = {
  overview: ["app", "backup"] as const,
  list: ["app", "backup", "list"] as const,
  job: (id: string) => ["app", "backup", "job", id] as const,
};

export function overviewQuery(client: NodeClient) {
  return queryOptions({
    queryKey: backupKeys.overview,
    queryFn: () => unwrap(backupCalls.overview(client)),
    refetchInterval: 10_000,
  });
}

export function listQuery(client: NodeClient) {
  return queryOptions({
    queryKey: backupKeys.list,
    queryFn: () => unwrap(backupCalls.list(client)),
    refetchInterval: 10_000,
  });
}

/** A job's progress, polled every 500 ms while it runs. */
export function jobQuery(client: NodeClient, id: string) {
  return queryOptions({
    queryKey: backupKeys.job(id),
    queryFn: () => unwrap(backupCalls.job(client, id)),
    refetchInterval: (q) => (q.state.data?.status === "backup-in-progress" ? 500 : false),
  });
}

/** Saving a settings change; the answer is the new overview (the list may be another folder's). */
export function saveBackupSettingsMutation(client: NodeClient, queries: QueryClient) {
  return mutationOptions({
    mutationFn: (patch: BackupSettingsPatch) => unwrap(backupCalls.settings(client, patch)),
    onSuccess: (overview) => {
      queries.setQueryData(backupKeys.overview, overview);
      void queries.invalidateQueries({ queryKey: backupKeys.list });
    },
  });
}

/** "Back up now"; the answer is the new job's id, whose progress and the list are asked. */
export function startBackupMutation(client: NodeClient, queries: QueryClient) {
  return mutationOptions({
    mutationFn: (includeState: boolean) => unwrap(backupCalls.start(client, includeState)),
    onSuccess: (id) => {
      void queries.invalidateQueries({ queryKey: backupKeys.job(id) });
      void queries.invalidateQueries({ queryKey: backupKeys.list });
    },
  });
}

/** "Delete" a listed backup. */
export function removeBackupMutation(client: NodeClient, queries: QueryClient) {
  return mutationOptions({
    mutationFn: (id: string) => unwrap(backupCalls.remove(client, id)),
    onSuccess: () => queries.invalidateQueries({ queryKey: backupKeys.list }),
  });
}

/**
 * Checking a backup before "Restore" is confirmed (every file read back against its checksum,
 * each time the confirmation opens): an action with an answer, not data kept in the cache.
 */
export function checkBackupMutation(client: NodeClient) {
  return mutationOptions({
    mutationFn: (which: Which) => unwrap(backupCalls.check(client, which)),
  });
}

/** "Restore", confirmed: the node restarts on the backup, which the restart watch follows. */
export function restoreBackupMutation(client: NodeClient, restart: RestartWatch) {
  return mutationOptions({
    mutationFn: (which: Which) => unwrap(backupCalls.restore(client, which)),
    onSuccess: (accepted) => restart.follow(accepted.launchId, "restore"),
  });
}

/**
 * "Choose folder…" (the desktop app): the folder picker's choice, or null when cancelled. A
 * chosen folder is also written to the app's settings, so the shell will open it later.
 */
export function chooseBackupFolderMutation(desktop: DesktopApi | null) {
  return mutationOptions({
    mutationFn: async (current: string) => {
      if (desktop === null) throw new Error("there is no folder picker in a browser");
      const chosen = await unwrapBridge(
        desktop.chooseFolder({ title: "Choose the backup folder", defaultPath: current }),
      );
      if (chosen !== null) void desktop.writeSettings({ backupDir: chosen });
      return chosen;
    },
  });
}

/** "Open folder" (the desktop app): the backup folder in the file manager. */
export function openBackupFolderMutation(desktop: DesktopApi | null) {
  return mutationOptions({
    mutationFn: async (directory: string) => {
      if (desktop === null) throw new Error("there is no file manager to open in a browser");
      // The shell opens only folders it knows: the settings' backup folder is one.
      const s = await desktop.readSettings();
      if (s.ok && s.value.backupDir !== directory) {
        await desktop.writeSettings({ backupDir: directory });
      }
      return unwrapBridge(desktop.openFolder(directory));
    },
  });
}
