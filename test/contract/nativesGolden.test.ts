/**
 * Pins the native tables (name and arity of every native) in golden files so
 * that any change to them is a reviewed diff. Regenerate with
 * `WEFT_UPDATE_GOLDEN=1 npx vitest run test/contract/nativesGolden.test.ts`.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { gasTableEntries, nativeGasCost } from "../../src-node/contract/eval/gasTable.ts";
import type { NativeDef } from "../../src-node/contract/natives/native.ts";
import { coreNatives } from "../../src-node/contract/natives/nativeTable.ts";
import { nativeConstants } from "../../src-node/contract/natives/strings.ts";
import { ReplSession } from "../../src-node/contract/repl/replSession.ts";

const here = resolve(import.meta.dirname);

function line(d: NativeDef): string {
  const max = d.arity.max === Number.POSITIVE_INFINITY ? "*" : String(d.arity.max);
  const flags = [d.lazy ? "lazy" : "", d.topLevelOnly === true ? "top-level" : ""].filter(
    (f) => f !== "",
  );
  return `${d.name} ${d.arity.min}..${max} gas=${nativeGasCost(d.name)}${flags.length > 0 ? ` ${flags.join(",")}` : ""}`;
}

function table(defs: Iterable<NativeDef>, header: string): string {
  const lines = [...defs].map(line).sort();
  return `# ${header}\n# name min..max gas=cost [flags]\n${lines.join("\n")}\n`;
}

function checkGolden(file: string, actual: string): void {
  const path = join(here, file);
  if (process.env.WEFT_UPDATE_GOLDEN === "1" || !existsSync(path)) writeFileSync(path, actual);
  expect(actual, `${file} differs; review and regenerate with WEFT_UPDATE_GOLDEN=1`).toBe(
    readFileSync(path, "utf8"),
  );
}

describe("[contract] native table golden files", () => {
  it("core natives and constants match natives.golden", () => {
    const constants = [...nativeConstants.keys()].sort().map((k) => `${k} constant`);
    checkGolden(
      "natives.golden",
      `${table(coreNatives.values(), "core natives")}${constants.join("\n")}\n`,
    );
  });

  it("repl natives match repl-natives.golden", () => {
    const session = new ReplSession();
    const repl = [...session.natives.values()].filter((d) => !coreNatives.has(d.name));
    checkGolden("repl-natives.golden", table(repl, "repl-only natives"));
  });

  it("every native with a gas cost is a native", () => {
    const session = new ReplSession();
    const missing = gasTableEntries()
      .map(([n]) => n)
      .filter((n) => !session.natives.has(n));
    expect(missing).toEqual([]);
  });

  it("every core native is exercised by some .repl file", () => {
    const texts = readdirSync(here)
      .filter((f) => f.endsWith(".repl"))
      .map((f) => readFileSync(join(here, f), "utf8"))
      .join("\n");
    const missing = [...coreNatives.keys()].filter(
      (n) => !texts.includes(`(${n} `) && !texts.includes(`(${n})`),
    );
    expect(missing).toEqual([]);
  });
});
