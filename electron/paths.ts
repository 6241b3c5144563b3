/**
 * Where the desktop app keeps and finds things. In development the app root is the
 * checkout; in a package it is `app.asar`, and the Electron build of better-sqlite3 sits
 * outside it under `resources/native/` (see build/ and docs/desktop.md).
 * @module
 */
import { join } from "node:path";

export type PathInputs = {
  /** `app.getPath("userData")`. */
  readonly userData: string;
  /** `app.getPath("logs")`. */
  readonly logs: string;
  /** `app.getAppPath()`: the checkout, or `…/resources/app.asar` when packaged. */
  readonly appRoot: string;
  /** `process.resourcesPath` (packaged builds). */
  readonly resourcesPath: string;
  readonly isPackaged: boolean;
};

export type DesktopPaths = {
  readonly settingsFile: string;
  /** The data directory used when the settings name none. */
  readonly defaultDataDir: string;
  readonly logFile: string;
  /** The bundled preload (built by `npm run build:preload`). */
  readonly preload: string;
  /** better_sqlite3.node built for Electron's ABI (never the Node build the tests use). */
  readonly sqliteNativeBinding: string;
};

export function desktopPaths(inputs: PathInputs): DesktopPaths {
  return {
    settingsFile: join(inputs.userData, "settings.json"),
    defaultDataDir: join(inputs.userData, "data"),
    logFile: join(inputs.logs, "weft.log"),
    preload: join(inputs.appRoot, "dist", "electron", "preload.cjs"),
    sqliteNativeBinding: inputs.isPackaged
      ? join(inputs.resourcesPath, "native", "better_sqlite3.node")
      : join(inputs.appRoot, "dist", "native", "electron", "better_sqlite3.node"),
  };
}
