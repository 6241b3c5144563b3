/**
 * The default data directory, an OS-appropriate per-user application-data
 * folder (docs/node.md):
 * - Linux and other Unix: `$XDG_DATA_HOME/weft`, default `~/.local/share/weft`;
 * - macOS: `~/Library/Application Support/Weft`;
 * - Windows: `%LOCALAPPDATA%\Weft` (default `~\AppData\Local\Weft`).
 * Each network keeps its databases in a subfolder named after it.
 * @module
 */
import { homedir } from "node:os";
import { join } from "node:path";

export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === "darwin") return join(home, "Library", "Application Support", "Weft");
  if (platform === "win32") {
    const local = env.LOCALAPPDATA;
    return local !== undefined && local !== ""
      ? join(local, "Weft")
      : join(home, "AppData", "Local", "Weft");
  }
  const xdg = env.XDG_DATA_HOME;
  return xdg !== undefined && xdg !== "" && xdg.startsWith("/")
    ? join(xdg, "weft")
    : join(home, ".local", "share", "weft");
}
