/**
 * What each bridge channel does in the main process. Electron's dialog and shell come in as
 * plain functions, so the handlers run under plain Node in tests. Expected failures throw
 * `DesktopError`s, which the dispatcher (ipcMain.ts) turns into error values.
 *
 * "Open folder" opens only folders the app knows (docs/desktop.md §4): the data folder in
 * use, the backup folder of the settings, the log folder, folders the user picked with the
 * folder picker in this session, and folders inside those; never a file (it would run), an
 * application bundle (a macOS `.app` is a folder that launches), a Windows shell folder
 * (`name.{CLSID}`) or a network path (refused by the contract's parser).
 * @module
 */
import { realpath, stat } from "node:fs/promises";
import { basename, dirname, sep } from "node:path";
import { DesktopError, DesktopErrorCode } from "../errors.ts";
import type { SettingsStore } from "../settings/settingsStore.ts";
import { type AppInfo, type ChooseFolderArgs, isNetworkPath } from "./contract.ts";
import type { InvokeHandlers } from "./ipcMain.ts";

export type HandlerDeps = {
  /** Shows the native folder picker; resolves to the chosen folder or null when cancelled. */
  readonly pickFolder: (args: ChooseFolderArgs) => Promise<string | null>;
  /** Electron's `shell.openPath`: resolves to "" on success, else an error message. */
  readonly openPath: (path: string) => Promise<string>;
  readonly settings: SettingsStore;
  readonly appInfo: () => AppInfo;
};

/** Folder name endings that macOS treats as bundles: opening one launches or installs it. */
const BUNDLE_SUFFIXES = [
  ".app",
  ".appex",
  ".action",
  ".bundle",
  ".framework",
  ".kext",
  ".mdimporter",
  ".mpkg",
  ".pkg",
  ".plugin",
  ".prefpane",
  ".qlgenerator",
  ".saver",
  ".service",
  ".workflow",
  ".xpc",
];

/** Why `path` (a folder) must not be opened even if the app knows it, or null. */
export function unsafeFolderReason(path: string): string | null {
  if (isNetworkPath(path)) return "it is a network path";
  const name = basename(path).toLowerCase();
  if (BUNDLE_SUFFIXES.some((s) => name.endsWith(s))) {
    return "it is an application bundle, which would run";
  }
  if (/\.\{[0-9a-f-]{36}\}$/i.test(name)) return "it is a Windows shell folder";
  return null;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** The real path of an existing folder, or null. */
async function realFolder(path: string): Promise<string | null> {
  try {
    return (await isDirectory(path)) ? await realpath(path) : null;
  } catch {
    return null;
  }
}

function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
}

export function createDesktopHandlers(deps: HandlerDeps): InvokeHandlers {
  /** Folders the user picked with the picker since the app started. */
  const picked = new Set<string>();

  const knownFolders = async (): Promise<string[]> => {
    const info = deps.appInfo();
    const backupDir = deps.settings.read().backupDir;
    const candidates = [info.dataDir, dirname(info.logFile), ...picked];
    if (backupDir !== null) candidates.push(backupDir);
    const real = await Promise.all(candidates.map(realFolder));
    return real.filter((p): p is string => p !== null);
  };

  return {
    "app/info": async () => deps.appInfo(),
    "dialog/choose-folder": async (args) => {
      const folder = await deps.pickFolder(args);
      if (folder !== null) picked.add(folder);
      return folder;
    },
    "shell/open-folder": async ({ path }) => {
      // Only folders: opening a file would run or open it with its default application.
      const real = await realFolder(path);
      if (real === null) {
        throw new DesktopError(
          { code: DesktopErrorCode.NotADirectory, path },
          `${path} is not a folder.`,
        );
      }
      const unsafe = unsafeFolderReason(path) ?? unsafeFolderReason(real);
      if (unsafe !== null) {
        throw new DesktopError(
          { code: DesktopErrorCode.FolderNotAllowed, path, reason: unsafe },
          `${path} is not opened: ${unsafe}.`,
        );
      }
      if (!(await knownFolders()).some((k) => isInside(real, k))) {
        throw new DesktopError(
          { code: DesktopErrorCode.FolderNotAllowed, path, reason: "not a folder of the app" },
          `${path} is not opened: only the data, backup and log folders, and folders you ` +
            "chose in this session, can be opened.",
        );
      }
      const failure = await deps.openPath(real);
      if (failure !== "") {
        throw new DesktopError(
          { code: DesktopErrorCode.OpenFailed, path, reason: failure },
          `Could not open ${path}: ${failure}`,
        );
      }
      return null;
    },
    "settings/read": async () => deps.settings.read(),
    "settings/write": async (patch) => deps.settings.write(patch),
  };
}
