/**
 * Every error code of the desktop shell (electron/errors.ts) and of the UI's client
 * (renderer/src/api/clientError.ts) is listed in docs/desktop.md §10, and every code listed
 * there exists.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { DesktopErrorCode } from "../../electron/errors.ts";
import { ClientErrorCode } from "../../renderer/src/api/clientError.ts";

const repo = resolve(import.meta.dirname, "..", "..");

describe("[docs] desktop error codes", () => {
  const declared = new Set<string>([
    ...Object.values(DesktopErrorCode),
    ...Object.values(ClientErrorCode),
  ]);
  const docs = readFileSync(join(repo, "docs", "desktop.md"), "utf8");
  const section = docs.slice(docs.indexOf("## 10. Error codes"));
  const documented = new Set(
    [...section.matchAll(/^\|\s*`([A-Z][A-Z0-9_]+)`/gm)].map((m) => m[1] as string),
  );

  it("finds the tables", () => {
    expect(declared.size).toBeGreaterThan(0);
    expect(documented.size).toBeGreaterThan(0);
  });
  it("documents every declared code", () => {
    expect([...declared].filter((c) => !documented.has(c))).toEqual([]);
  });
  it("documents no code that does not exist", () => {
    expect([...documented].filter((c) => !declared.has(c))).toEqual([]);
  });
});
