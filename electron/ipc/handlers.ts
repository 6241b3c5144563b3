/**
 * What each bridge channel does in the main process. Electron's dialog and shell come in as
 * plain functions, so the handlers run under plain Node in tests. Expected failures throw
 * `DesktopError`s, which the dispatcher (ipcMain.ts) turns into error values.
 * @module
 */
import { stat } from "node:fs/promises";
import { DesktopError, DesktopErrorCode } from "../errors.ts";
import type { SettingsStore } from "../settings/settingsStore.ts";
import type { AppInfo, ChooseFolderArgs } from "./contract.ts";
import type { InvokeHandlers } from "./ipcMain.ts";

export type HandlerDeps = {
  /** Shows the native folder picker; resolves to the chosen folder or null when cancelled. */
  readonly pickFolder: (args: ChooseFolderArgs) => Promise<string | null>;
  /** Electron's `shell.openPath`: resolves to "" on success, else an error message. */
  readonly openPath: (path: string) => Promise<string>;
  readonly settings: SettingsStore;
  readonly appInfo: () => AppInfo;
};

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

export function createDesktopHandlers(deps: HandlerDeps): InvokeHandlers {
  return {
    "app/info": async () => deps.appInfo(),
    "dialog/choose-folder": (args) => deps.pickFolder(args),
    "shell/open-folder": async ({ path }) => {
      // Only folders: opening a file would run or open it with its default application.
      if (!(await isDirectory(path))) {
        throw new DesktopError(
          { code: DesktopErrorCode.NotADirectory, path },
          `${path} is not a folder.`,
        );
      }
      const failure = await deps.openPath(path);
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
