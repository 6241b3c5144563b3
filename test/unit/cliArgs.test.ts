/**
 * Arguments of the offline `weft` commands that look like options: files whose
 * names start with "-" (after `-a`/`-u`, and after `--` for add-sig and
 * combine-sigs) and `-` for standard input. Runs in a temporary working
 * directory go through bin/weft.js, since the test process cannot change its
 * own directory.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { fixture, runWeft, tempDir } from "./cliHarness.ts";

const BIN = resolve(import.meta.dirname, "..", "..", "bin", "weft.js");
const aliceKey = fixture("keys/alice.yaml");
const bobKey = fixture("keys/bob.yaml");

/** Runs bin/weft.js in `cwd`; one process per call (slow: keep these few). */
function weftIn(cwd: string, argv: string[], input = "") {
  const out = spawnSync(process.execPath, [BIN, ...argv], {
    cwd,
    input,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

async function ok(argv: string[], stdin = ""): Promise<string> {
  const run = await runWeft(argv, stdin);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return run.stdout;
}

describe("[cli] arguments that start with '-'", () => {
  it("-u and -a take the next argument as the file; '-' reads standard input from the working directory", () => {
    const t = tempDir();
    t.write("code.pact", "(+ 1 2)\n");
    const request = "codeFile: code.pact\nnonce: n\npublicMeta: {creationTime: 1}\n";
    t.write("-req.yaml", request);
    const named = weftIn(t.dir, ["-u", "-req.yaml"]);
    expect(named.stderr).toBe("");
    expect(named.code).toBe(0);
    const piped = weftIn(t.dir, ["-u", "-"], request);
    expect(piped.stderr).toBe("");
    expect(piped.stdout).toBe(named.stdout);
    const cmd = JSON.parse((parseYaml(named.stdout) as { cmd: string }).cmd) as {
      payload: { exec: { code: string } };
    };
    expect(cmd.payload.exec.code).toBe("(+ 1 2)\n");
    // In a YAML read from stdin, errors name <stdin>.
    const bad = weftIn(t.dir, ["-a", "-", "-l"], "code: x\nnoSuchKey: 1\n");
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toBe(
      "weft: <stdin>: noSuchKey: unknown key; expected one of: type, data, dataFile, nonce, networkId, publicMeta, keyPairs, code, codeFile\n",
    );
  });

  it("-a with a flag of the tool instead of a file is still a usage error", async () => {
    for (const argv of [
      ["-a", "-l"],
      ["-u", "-c"],
      ["-u", "--local"],
    ]) {
      const run = await runWeft(argv);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("needs a request file");
    }
  });

  it("add-sig and combine-sigs take files named '-…' after --", async () => {
    const tx = await ok(["-u", fixture("unsigned-two.yaml")]);
    const t = tempDir();
    t.write("-alice.yaml", readFileSync(aliceKey, "utf8"));
    const signed = weftIn(t.dir, ["add-sig", "--", "-alice.yaml"], tx);
    expect(signed.stderr).toBe("");
    expect(signed.code).toBe(0);
    expect(signed.stdout).toBe(await ok(["add-sig", aliceKey], tx));
    t.write("-a.yaml", signed.stdout);
    t.write("b.yaml", await ok(["add-sig", bobKey], tx));
    const combined = weftIn(t.dir, ["combine-sigs", "-l", "--", "-a.yaml", "b.yaml"]);
    expect(combined.stderr).toBe("");
    expect(combined.code).toBe(0);
    expect(JSON.parse(combined.stdout)).toHaveProperty("sigs");
    // Without -- a name starting with "-" is an unknown option.
    const refused = await runWeft(["add-sig", "-alice.yaml"], tx);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("unexpected option '-alice.yaml'");
  });

  it("combine-sigs reads '-' from standard input, named <stdin> in errors", async () => {
    const tx = await ok(["-u", fixture("unsigned-two.yaml")]);
    const a = await ok(["add-sig", aliceKey], tx);
    const b = await ok(["add-sig", bobKey], tx);
    const t = tempDir();
    const bFile = t.write("b.yaml", b);
    const expected = await ok(["combine-sigs", t.write("a.yaml", a), bFile]);
    expect(await ok(["combine-sigs", "-", bFile], a)).toBe(expected);
    const bad = await runWeft(["combine-sigs", bFile, "-"], "hash: x\nsigs: {}\n");
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("weft: <stdin>: hash: expected a request key");
    const twice = await runWeft(["combine-sigs", "-", "-"], a);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("at most once");
  });

  it("add-sig refuses '-' as a key file: standard input holds the transaction", async () => {
    const tx = await ok(["-u", fixture("unsigned-two.yaml")]);
    const run = await runWeft(["add-sig", "-"], tx);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("'-' cannot be a key file: standard input holds the transaction");
  });
});
