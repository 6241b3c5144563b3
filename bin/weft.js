#!/usr/bin/env node
// The `weft` command. It runs the compiled CLI (`dist/src-node/cli/main.js`, written by
// `npm run build` and by `npm install`'s `prepare`). In a checkout whose TypeScript sources
// changed after the last build (or that was never built), it runs the sources through tsx
// instead, slower but never stale (docs/building.md).
import { existsSync, readdirSync, statSync } from "node:fs";

const root = new URL("../", import.meta.url);
const compiled = new URL("dist/src-node/cli/main.js", root);

/** Whether a source file under src-node/ or electron/ is newer than the last compile (notes aside). */
function sourcesNewerThan(stampMs) {
  for (const dir of ["src-node", "electron"]) {
    const base = new URL(`${dir}/`, root);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || entry.name.endsWith(".md")) continue;
      if (statSync(`${entry.parentPath}/${entry.name}`).mtimeMs > stampMs) return true;
    }
  }
  return false;
}

function compiledIsCurrent() {
  if (!existsSync(compiled)) return false;
  // A package ships no sources: what is compiled is all there is.
  if (!existsSync(new URL("src-node/", root))) return true;
  const stamp = new URL("dist/.build/node.json", root);
  return existsSync(stamp) && !sourcesNewerThan(statSync(stamp).mtimeMs);
}

let main;
if (compiledIsCurrent()) {
  ({ main } = await import(compiled.href));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import(new URL("src-node/cli/main.ts", root).href));
}
process.exitCode = await main(process.argv.slice(2));
