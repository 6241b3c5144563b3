/**
 * Runs `weft` in-process for the CLI tests: captured stdout/stderr, a given
 * standard input and a fixed clock.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll } from "vitest";
import type { CliIo } from "../../src-node/cli/io.ts";
import { main } from "../../src-node/cli/main.ts";

export const FIXED_NOW = new Date("2024-01-02T03:04:05.678Z");

export type WeftRun = { code: number; stdout: string; stderr: string };

export async function runWeft(argv: string[], stdin = "", now = FIXED_NOW): Promise<WeftRun> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    readStdin: async () => stdin,
    now: () => now,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

const fixtures = resolve(import.meta.dirname, "..", "fixtures", "requests");

/** The path of a file under test/fixtures/requests. */
export function fixture(name: string): string {
  return join(fixtures, name);
}

const created: string[] = [];
// Registered while the importing test file is collected: its directories go when it ends.
afterAll(() => {
  for (const d of created.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh temporary directory (removed after the test file) with a helper to write files into it. */
export function tempDir(): { dir: string; write(name: string, text: string): string } {
  const dir = mkdtempSync(join(tmpdir(), "weft-cli-"));
  created.push(dir);
  return {
    dir,
    write(name, text) {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
  };
}
