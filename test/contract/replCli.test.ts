/**
 * `weft repl`: script files report every expectation with file:line and exit
 * non-zero on any failure; the prompt evaluates complete forms as typed.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { CliIo } from "../../src-node/cli/io.ts";
import { main } from "../../src-node/cli/main.ts";
import { runReplPrompt } from "../../src-node/cli/repl.ts";

function bufferIo(): { io: CliIo; out: () => string } {
  let out = "";
  const io: CliIo = {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (out += t) },
    readStdin: async () => "",
    now: () => new Date(0),
  };
  return { io, out: () => out };
}

async function* lines(...ls: string[]): AsyncIterable<string> {
  for (const l of ls) yield l;
}

describe("[contract] weft repl", () => {
  const dir = mkdtempSync(join(tmpdir(), "weft-repl-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const good = join(dir, "good.repl");
  const bad = join(dir, "bad.repl");
  writeFileSync(good, '(expect "two" 2 (+ 1 1))\n(print "hi")\n');
  writeFileSync(bad, '(expect "two" 2 (+ 1 1))\n(expect "wrong" 3 (+ 1 1))\n');

  it("passes a script whose expectations all hold", async () => {
    const { io, out } = bufferIo();
    expect(await main(["repl", good], io)).toBe(0);
    expect(out()).toContain(`${good}:1: Expect: success: two`);
    expect(out()).toContain("hi\n");
    expect(out()).toContain("1 passed, 0 failed");
  });

  it("exits non-zero and names the failing line", async () => {
    const { io, out } = bufferIo();
    expect(await main(["repl", good, bad], io)).toBe(1);
    expect(out()).toContain(`${bad}:2: FAILURE: wrong: expected 3 (integer), received 2 (integer)`);
    expect(out()).toContain("2 passed, 1 failed");
  });

  it("exits non-zero for a missing file or an uncaught error", async () => {
    const { io } = bufferIo();
    expect(await main(["repl", join(dir, "missing.repl")], io)).toBe(1);
    const err = join(dir, "err.repl");
    writeFileSync(err, "(+ 1");
    const b = bufferIo();
    expect(await main(["repl", err], b.io)).toBe(1);
    expect(b.out()).toContain("Syntax error: expected ')'");
  });

  it("prompt evaluates forms, including ones spread over lines", async () => {
    const { io, out } = bufferIo();
    await runReplPrompt(
      lines("(+ 1 2)", "(let ((x 2))", "  (* x 5))", '(enforce false "no")', '"s"', "(print 1)"),
      io,
      false,
    );
    expect(out()).toBe('3\n10\n<interactive>:1:0: Failure: Tx Failed: no\n"s"\n1\n"1"\n');
  });
});
