/**
 * Runs every `.repl` file under test/contract/ (the language's tests are data)
 * through the repl runner, once per storage implementation
 * (storageImplementations.ts). Each expectation becomes one test named after
 * its file, line and description, so a failure shows the expectation and its
 * line.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ReplSession } from "../../src-node/contract/repl/replSession.ts";
import { storageImplementations } from "./storageImplementations.ts";

const here = resolve(import.meta.dirname);

function replFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return name === "fixtures" ? [] : replFiles(p);
      return name.endsWith(".repl") ? [p] : [];
    });
}

const files = replFiles(here);

describe.each(storageImplementations)("[contract] .repl files on $name storage", (impl) => {
  it("finds the language test files", () => expect(files.length).toBeGreaterThan(5));

  for (const file of files) {
    const name = relative(here, file);
    describe(name, () => {
      const session = new ReplSession({
        readFile: (p) => readFileSync(p, "utf8"),
        storageFactory: impl.create,
      });
      const report = session.runScript(readFileSync(file, "utf8"), file);
      it("runs to the end without an uncaught error", () => {
        expect(report.error?.rendered ?? null, `${name}: uncaught error`).toBeNull();
      });
      it("has expectations", () => expect(report.expectations.length).toBeGreaterThan(0));
      for (const [i, e] of report.expectations.entries()) {
        it(`${name}:${e.line} #${i} ${e.doc}`, () => {
          expect(e.ok, `${relative(here, e.file)}:${e.line}: ${e.message}`).toBe(true);
        });
      }
    });
  }
});
