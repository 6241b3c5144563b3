/**
 * The renderer's import rules: outside renderer/ it may import only the desktop bridge's
 * contract (electron/ipc/contract.ts) and the node's pure, browser-safe areas
 * (src-node/command/, src-node/encoding/) and the test keys' data module
 * (src-node/genesis/devAccountKeys.ts); no Node.js built-ins; and a feature folder
 * (renderer/src/features/<name>/) never imports another feature, so each can grow alone;
 * shared code (api/, services/, ui/, format/) imports no feature; only app/ (the router)
 * puts the features together.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const repo = resolve(import.meta.dirname, "..", "..");
const src = join(repo, "renderer", "src");

const allowedOutside = [
  /^electron\/ipc\/contract\.ts$/,
  /^src-node\/(command|encoding)\//,
  // A pure data module (the development network's published test keys; no imports).
  /^src-node\/genesis\/devAccountKeys\.ts$/,
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

function featureOf(file: string): string | null {
  const m = /^features\/([^/]+)\//.exec(relative(src, file).split("\\").join("/"));
  return m?.[1] ?? null;
}

describe("[renderer] import rules", () => {
  it("imports only browser-safe code, and features do not import each other", () => {
    const violations: string[] = [];
    const all = files(src);
    expect(all.length).toBeGreaterThan(20);
    for (const file of all) {
      const text = readFileSync(file, "utf8");
      const from = relative(repo, file);
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
        const spec = m[1] as string;
        if (spec.startsWith("node:")) {
          violations.push(`${from} imports ${spec}`);
          continue;
        }
        if (!spec.startsWith(".")) continue;
        const target = resolve(dirname(file), spec);
        const rel = relative(repo, target).split("\\").join("/");
        if (!rel.startsWith("renderer/")) {
          if (!allowedOutside.some((r) => r.test(rel))) violations.push(`${from} imports ${rel}`);
          continue;
        }
        const a = featureOf(file);
        const b = target.startsWith(src) ? featureOf(target) : null;
        // Only the app (router) puts features together; shared code never imports one.
        const inApp = relative(src, file).split("\\").join("/").startsWith("app/");
        if (b !== null && a !== b && !(a === null && inApp)) {
          violations.push(`${from} (feature ${a ?? "none"}) imports ${rel}`);
        }
      }
    }
    expect(violations).toEqual([]);
  });
});
