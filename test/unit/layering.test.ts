/**
 * Keeps the dependency direction of ARCHITECTURE.md: every relative import in
 * src-node/ must point to the same area or to an area listed as allowed.
 * The browser-safe areas (the command model and what it stands on) import no
 * Node built-in, no SQLite, no Fastify and use no Node global; the renderer
 * imports nothing else from src-node/.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..", "..", "src-node");

/** area → areas it may import (besides itself). Keep in step with ARCHITECTURE.md. */
const allowed: Record<string, readonly string[]> = {
  errors: [],
  threads: [],
  command: ["errors"],
  encoding: ["errors"],
  crypto: ["errors", "encoding"],
  chain: ["errors", "encoding", "crypto"],
  contract: ["errors", "encoding", "crypto", "command"],
  store: ["errors", "encoding", "crypto", "chain", "contract", "command"],
  exec: ["errors", "encoding", "crypto", "chain", "contract", "store", "threads", "command"],
  mempool: ["errors", "encoding", "crypto", "chain", "contract", "store", "exec", "command"],
  mining: [
    "command",
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
  index: [
    "errors",
    "encoding",
    "crypto",
    "chain",
    "contract",
    "store",
    "exec",
    "command",
    "mempool",
  ],
  p2p: [
    "command",
    "errors",
    "encoding",
    "crypto",
    "chain",
    "contract",
    "store",
    "exec",
    "mempool",
    "mining",
  ],
  genesis: ["errors", "encoding", "crypto", "chain", "contract", "exec", "command"],
  api: [
    "command",
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
    "p2p",
    "index",
  ],
  "node.ts": [
    "command",
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
    "p2p",
    "index",
    "api",
    "config",
    "genesis",
    "threads",
  ],
  config: ["errors", "encoding", "chain"],
  cli: ["*"],
};

/** Areas that run in the browser as they are (the renderer may import them, and only them). */
const browserSafe: readonly string[] = ["command", "errors"];
/** Single files outside those areas the renderer may import: pure data modules without imports. */
const browserSafeFiles: readonly string[] = ["genesis/devAccountKeys.ts"];
/** The only packages a browser-safe area may import (pure JavaScript). */
const browserPackages: readonly string[] = ["@noble/hashes", "@noble/ed25519", "@scure/base"];

function files(dir: string, pattern = /\.ts$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p, pattern) : pattern.test(p) ? [p] : [];
  });
}

/** Source text without comments (a comment may name `Buffer` or `node:crypto`). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'])\/\/.*$/gm, "$1");
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

  it("the single files the renderer may import import nothing and use no Node global", () => {
    for (const file of browserSafeFiles) {
      const code = withoutComments(readFileSync(join(root, file), "utf8"));
      expect(code, file).not.toMatch(/(?:^|\s)import\s|\bfrom\s+"|\brequire\(/);
      expect(code, file).not.toMatch(/\b(Buffer|process|__dirname|__filename)\b/);
    }
  });

  it("the browser-safe areas import no Node built-in, SQLite or Fastify, and use no Node global", () => {
    const violations: string[] = [];
    for (const area of browserSafe) {
      for (const file of files(join(root, area))) {
        const rel = relative(root, file);
        const code = withoutComments(readFileSync(file, "utf8"));
        for (const m of code.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
          const spec = m[1] as string;
          if (spec.startsWith(".")) continue;
          const pkg = spec.startsWith("@")
            ? spec.split("/").slice(0, 2).join("/")
            : spec.split("/")[0];
          if (!browserPackages.includes(pkg as string)) violations.push(`${rel} imports ${spec}`);
        }
        for (const g of code.matchAll(/\b(Buffer|process|require|__dirname|__filename)\b/g)) {
          violations.push(`${rel} uses the Node global ${g[1]}`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it("the renderer imports nothing from src-node/ but the browser-safe areas", () => {
    const rendererRoot = resolve(root, "..", "renderer", "src");
    const violations: string[] = [];
    for (const file of files(rendererRoot, /\.tsx?$/)) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
        const spec = m[1] as string;
        const rel = relative(rendererRoot, file);
        if (/^(?:node:|better-sqlite3|fastify|@fastify\/)/.test(spec)) {
          violations.push(`${rel} imports ${spec}`);
          continue;
        }
        if (!spec.startsWith(".")) continue;
        const target = resolve(dirname(file), spec);
        if (!target.startsWith(root)) continue;
        const targetFile = relative(root, target).split("\\").join("/");
        if (browserSafeFiles.includes(targetFile)) continue;
        if (!browserSafe.includes(areaOf(target))) {
          violations.push(`${rel} imports ${relative(root, target)} (src-node/${areaOf(target)})`);
        }
      }
    }
    expect(violations).toEqual([]);
  });
});
