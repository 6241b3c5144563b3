/**
 * `weft node`: prints the base URL, serves until a stop signal, then closes
 * the server and the databases and exits 0; usage errors exit 2, bad
 * options 1. Also run as a real process stopped by SIGINT and SIGTERM, after
 * which the database opens cleanly with the same cut.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testSingletonVersion, testTransitionVersion } from "../../src-node/chain/versions.ts";
import type { CliIo } from "../../src-node/cli/io.ts";
import { main } from "../../src-node/cli/main.ts";
import { nodeCommand } from "../../src-node/cli/node.ts";
import { SWITCHES, VALUE_FLAGS } from "../../src-node/config/parseNodeFlags.ts";
import { genesisPayloadOf } from "../../src-node/genesis/genesisPayloads.ts";
import { BlockDb } from "../../src-node/store/blockDb.ts";
import { sql } from "../../src-node/store/sql.ts";
import { fakeSignals } from "../support/fakeSignals.ts";
import { tempDir } from "../support/testNode.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dir(): string {
  const d = tempDir();
  dirs.push(d);
  return d;
}

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliIo = {
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    readStdin: async () => "",
    now: () => new Date(),
  };
  return { cli, out: () => out.join(""), err: () => err.join("") };
}

async function until(f: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !f(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!f()) throw new Error("timed out");
}

describe("[cli] weft node (in process)", () => {
  it("prints the base URL, serves, and closes cleanly on a stop signal", async () => {
    const d = dir();
    const { cli, out, err } = io();
    const s = fakeSignals();
    const done = nodeCommand(
      ["--network", "test-singleton", "--data-dir", d, "--port", "0"],
      cli,
      s.signals,
    );
    await until(() => out().includes("\n"));
    const url = out().trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ledger\/0\.0\/test-singleton$/);
    const cut = await fetch(`${url}/cut`);
    expect(cut.status).toBe(200);
    s.send("SIGTERM");
    expect(await done).toBe(0);
    expect(err()).toContain("SIGTERM received");
    expect(err()).toContain("stopped");
    await expect(fetch(`${url}/cut`)).rejects.toThrow();
  });

  it("reads options from a YAML file, flags winning", async () => {
    const d = dir();
    const file = join(d, "node.yaml");
    writeFileSync(file, "network: test-transition\ndata-dir: ./data\nport: 1\n");
    const { cli, out } = io();
    const s = fakeSignals();
    const done = nodeCommand(["--config", file, "--port", "0"], cli, s.signals);
    await until(() => out().includes("\n"));
    expect(out()).toMatch(/\/ledger\/0\.0\/test-transition\n$/);
    s.send("SIGINT");
    expect(await done).toBe(0);
    const db = BlockDb.open({
      path: join(d, "data", "test-transition", "blocks.sqlite"),
      version: testTransitionVersion,
      genesisPayload: (c) => genesisPayloadOf(testTransitionVersion, c),
    });
    db.close();
  });

  it("prints usage for --help, naming every flag it takes", async () => {
    const { cli, out } = io();
    expect(await nodeCommand(["--help"], cli, fakeSignals().signals)).toBe(0);
    expect(out()).toContain("Usage: weft node");
    // Issue 36: --mine-on-demand was missing; now no flag can be.
    for (const flag of [...VALUE_FLAGS, ...SWITCHES]) {
      expect(out(), flag).toMatch(new RegExp(`(^|[\\s,])${flag}(\\s|,|$)`, "m"));
    }
  });

  it("says how to choose another port when its port is in use", async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, "127.0.0.1", r));
    const port = (taken.address() as AddressInfo).port;
    try {
      const { cli, err } = io();
      const code = await nodeCommand(
        ["--network", "test-singleton", "--data-dir", dir(), "--port", String(port)],
        cli,
        fakeSignals().signals,
      );
      expect(code).toBe(1);
      expect(err()).toContain(`another program (another Weft node?) uses port ${port}`);
      expect(err()).toContain(
        `give another port: --port ${port + 1} (--port 0 takes any free port)`,
      );
    } finally {
      taken.close();
    }
  });

  it("exits 2 for a bad flag and 1 for a bad value or file, naming it", async () => {
    const cases: [string[], number, RegExp][] = [
      [["--prot", "1"], 2, /--prot: unknown flag/],
      [["--port"], 2, /--port: expects a value/],
      [["--network", "moon", "--data-dir", dir()], 1, /network: unknown network "moon"/],
      [["--port", "x", "--data-dir", dir()], 1, /port: expected an integer/],
      [["--config", "/no/such.yaml"], 1, /cannot read the configuration file/],
    ];
    for (const [args, code, message] of cases) {
      const { cli, err } = io();
      expect(await nodeCommand(args, cli, fakeSignals().signals), args.join(" ")).toBe(code);
      expect(err(), args.join(" ")).toMatch(message);
    }
  });

  it("is registered as `weft node`", async () => {
    const { cli, out } = io();
    expect(await main(["node", "--help"], cli)).toBe(0);
    expect(out()).toContain("Usage: weft node");
    const help = io();
    await main(["help"], help.cli);
    expect(help.out()).toContain("node [OPTIONS]");
  });
});

describe("[cli] weft node (a real process)", () => {
  const bin = resolve(import.meta.dirname, "..", "..", "bin", "weft.js");

  async function runUntilSignal(signal: NodeJS.Signals) {
    const d = dir();
    const child: ChildProcess = spawn(
      process.execPath,
      [bin, "node", "--network", "test-singleton", "--data-dir", d, "--port", "0"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.stderr?.on("data", (c: Buffer) => {
      err += c.toString();
    });
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    try {
      for (let i = 0; i < 1500 && !out.includes("\n") && child.exitCode === null; i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
      const url = out.trim();
      expect(url, err).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ledger\/0\.0\/test-singleton$/);
      const res = await fetch(`${url}/health-check`);
      expect(res.status).toBe(200);
      const cut = await (await fetch(`${url}/cut`)).json();
      child.kill(signal);
      expect(await exited, err).toBe(0);
      expect(err).toContain(`${signal} received`);
      return { d, cut };
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`shuts down cleanly on ${signal}: the database opens again, intact, with the same cut`, async () => {
      const { d, cut } = await runUntilSignal(signal);
      const db = BlockDb.open({
        path: join(d, "test-singleton", "blocks.sqlite"),
        version: testSingletonVersion,
        genesisPayload: (c) => genesisPayloadOf(testSingletonVersion, c),
      });
      try {
        expect(
          db.store.db.get(sql`PRAGMA integrity_check`, (r) => Object.values(r as object)[0]),
        ).toBe("ok");
        expect((cut as { id: string }).id).toBeDefined();
        expect(db.cut().size).toBe(10);
      } finally {
        db.close();
      }
    });
  }
});
