/**
 * Finds the desktop bridge the preload exposes (`window.weftDesktop`). The same UI served to
 * a browser has none; desktop-only controls are then simply not shown.
 * @module
 */
import { type DesktopApi, desktopApiGlobal } from "../../../electron/ipc/contract.ts";

export type { DesktopApi };

const methods = ["appInfo", "chooseFolder", "openFolder", "readSettings", "writeSettings"] as const;

function isDesktopApi(x: unknown): x is DesktopApi {
  if (typeof x !== "object" || x === null) return false;
  return methods.every((m) => m in x && typeof Reflect.get(x, m) === "function");
}

/** The bridge on `scope` (pass `window`), or null outside the desktop app. */
export function findDesktopBridge(scope: unknown): DesktopApi | null {
  if (typeof scope !== "object" || scope === null) return null;
  const api: unknown = Reflect.get(scope, desktopApiGlobal);
  return isDesktopApi(api) ? api : null;
}
