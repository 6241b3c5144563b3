/**
 * Keeps the dependency direction of ARCHITECTURE.md: every relative import in
 * src-node/ must point to the same area or to an area listed as allowed.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..", "..", "src-node");

/** area → areas it may import (besides itself). Keep in step with ARCHITECTURE.md. */
const allowed: Record<string, readonly string[]> = {
  errors: [],
  threads: [],
  encoding: ["errors"],
  crypto: ["errors", "encoding"],
  chain: ["errors", "encoding", "crypto"],
  contract: ["errors", "encoding", "crypto"],
  store: ["errors", "encoding", "crypto", "chain", "contract"],
  exec: ["errors", "encoding", "crypto", "chain", "contract", "store", "threads"],
  mempool: ["errors", "encoding", "crypto", "chain", "contract", "store", "exec"],
  mining: [
    "errors",
    "encoding",
    "crypto",
    "chain",
    "contract",
    "store",
    "exec",
    "mempool",
    "threads",
  ],
  backup: ["errors", "encoding", "crypto", "chain", "store"],
  genesis: ["errors", "encoding", "crypto", "chain", "contract", "exec"],
  api: [
    "errors",
    "encoding",
    "crypto",
    "chain",
    "contract",
    "store",
    "exec",
    "mempool",
    "mining",
    "backup",
  ],
  "node.ts": [
    "errors",
    "encoding",
    "crypto",
    "chain",
    "contract",
    "store",
    "exec",
    "mempool",
    "mining",
    "backup",
    "api",
    "config",
    "genesis",
    "threads",
  ],
  config: ["errors", "encoding", "chain"],
  cli: ["*"],
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

function areaOf(file: string): string {
  const rel = relative(root, file);
  const first = rel.split(/[\\/]/)[0] ?? rel;
  return first;
}

describe("[architecture] layering", () => {
  it("every src-node import points along the dependency direction", () => {
    const violations: string[] = [];
    for (const file of files(root)) {
      const from = areaOf(file);
      const rules = allowed[from];
      if (rules === undefined) {
        violations.push(`${relative(root, file)}: area '${from}' is not in the layering table`);
        continue;
      }
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
        const target = resolve(dirname(file), m[1] as string);
        if (!target.startsWith(root)) {
          if (!relative(root, target).startsWith("../package.json")) {
            violations.push(`${relative(root, file)} imports ${m[1]} outside src-node`);
          }
          continue;
        }
        const to = areaOf(target);
        if (to === from || rules.includes("*") || rules.includes(to)) continue;
        violations.push(`${relative(root, file)} (${from}) imports ${to}`);
      }
      if (from !== "cli" && /from\s+"electron"/.test(text)) {
        violations.push(`${relative(root, file)} imports electron`);
      }
    }
    expect(violations).toEqual([]);
  });
});
