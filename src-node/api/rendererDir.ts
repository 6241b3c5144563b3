/**
 * Where the built UI lives: `dist/renderer/` at the repository root (in a
 * desktop package, the same relative path inside `app.asar`), found from
 * this file's own location so the working directory does not matter. It is
 * produced by `npm run build:renderer`; a node started without it still
 * runs and says so under `/app/` (API_UI_NOT_BUILT).
 * @module
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The default folder of the built UI: `<repo>/dist/renderer`, from `src-node/api/` in a
 * checkout or from the compiled `dist/src-node/api/` (`npm run build`).
 */
export function defaultRendererDir(): string {
  const compiled = import.meta.url.endsWith(".js");
  return fileURLToPath(
    new URL(compiled ? "../../renderer/" : "../../dist/renderer/", import.meta.url),
  );
}

/** Whether `dir` holds a built UI (an `index.html` file). */
export function isRendererBuilt(dir: string): boolean {
  const index = join(dir, "index.html");
  return existsSync(index) && statSync(index).isFile();
}
