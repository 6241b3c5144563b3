/**
 * Every error code declared in a src-node errors.ts (and in the renderer's code tables listed
 * below) is documented in docs/errors.md, and every documented code exists.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const repo = resolve(import.meta.dirname, "..", "..");

function errorFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return errorFiles(p);
    return name === "errors.ts" ? [p] : [];
  });
}

describe("[docs] error codes", () => {
  const declared = new Set<string>();
  /** The renderer's own code tables (not HTTP errors, documented in the same file). */
  const rendererTables = [join(repo, "renderer/src/features/wallet/vault/vaultProtocol.ts")];
  for (const f of [...errorFiles(join(repo, "src-node")), ...rendererTables]) {
    const text = readFileSync(f, "utf8");
    for (const table of text.matchAll(/ErrorCode\s*=\s*\{([^}]*)\}\s*as const/g)) {
      for (const m of (table[1] as string).matchAll(/:\s*"([A-Z][A-Z0-9_]+)"/g))
        declared.add(m[1] as string);
    }
  }
  const docs = readFileSync(join(repo, "docs", "errors.md"), "utf8");
  const documented = new Set(
    [...docs.matchAll(/^\|\s*`([A-Z][A-Z0-9_]+)`/gm)].map((m) => m[1] as string),
  );

  it("finds the code tables", () => expect(declared.size).toBeGreaterThan(0));
  it("documents every declared code", () => {
    expect([...declared].filter((c) => !documented.has(c))).toEqual([]);
  });
  it("documents no code that does not exist", () => {
    expect([...documented].filter((c) => !declared.has(c))).toEqual([]);
  });
});
