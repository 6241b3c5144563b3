/**
 * The command line's contract-command tools: `weft send/local/poll/listen`
 * against a listening test node, and `weft -s CONFIG.yaml`, the standalone
 * server answering POST /api/v1/local with {status, response: {status, data}}.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIo } from "../../src-node/cli/io.ts";
import {
  readStandaloneConfig,
  standaloneCommand,
  startStandaloneServer,
} from "../../src-node/cli/standaloneServer.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { signedCommand } from "../support/execChain.ts";
import { fakeSignals } from "../support/fakeSignals.ts";
import { mineOn } from "../support/nodeMining.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";
import { runWeft, tempDir } from "./cliHarness.ts";

const { requestKeyOf } = nodeCommands;

describe("[cli] weft send, local, poll, listen", () => {
  let t: TestNode;
  let url: string;
  const files = tempDir();
  beforeAll(async () => {
    t = await openTestNode({});
    url = await t.node.start();
  });
  afterAll(async () => {
    await t.cleanup();
    rmSync(files.dir, { recursive: true, force: true });
  });

  it("sends a /send body, polls and listens for its result, runs /local", async () => {
    const cmd = signedCommand({ code: "(+ 20 22)" });
    const file = files.write("send.json", JSON.stringify({ cmds: [cmd] }));
    const sent = await runWeft(["send", file, "--node", url]);
    expect(sent.stderr).toBe("");
    expect(sent.code).toBe(0);
    expect(JSON.parse(sent.stdout)).toEqual({ requestKeys: [cmd.hash] });
    const answer = files.write("answer.json", sent.stdout);
    expect(
      JSON.parse((await runWeft(["poll", answer, "--node", url, "--chain", "0"])).stdout),
    ).toEqual({});
    await mineOn(t.node, 0);
    const polled = await runWeft(["poll", cmd.hash, "--node", url, "--chain", "0"]);
    expect(JSON.parse(polled.stdout)[cmd.hash].result).toEqual({ status: "success", data: 42 });
    const listened = await runWeft(["listen", cmd.hash, "--node", url, "--chain", "0"]);
    expect(JSON.parse(listened.stdout).result.data).toBe(42);
    const single = files.write("local.json", JSON.stringify(signedCommand({ code: "(* 6 7)" })));
    const local = await runWeft(["local", single, "--node", url]);
    expect(JSON.parse(local.stdout).result).toEqual({ status: "success", data: 42 });
    const pre = await runWeft([
      "local",
      single,
      "--node",
      url,
      "--preflight",
      "--rewind-depth",
      "1",
    ]);
    expect(Object.keys(JSON.parse(pre.stdout))).toEqual(["preflightResult", "preflightWarnings"]);
    // From standard input, with the signature check off for an unsigned slot.
    const unsigned = JSON.stringify({ ...signedCommand({ code: "1" }), sigs: [{ sig: "" }] });
    const fromStdin = await runWeft(
      ["local", "-", "--node", url, "--no-signature-verification"],
      unsigned,
    );
    expect(fromStdin.code).toBe(0);
  });

  it("prints a refusal with its status (exit 1) and usage errors (exit 2)", async () => {
    const bad = files.write(
      "bad.json",
      JSON.stringify({ cmds: [{ ...signedCommand({ code: "1" }), hash: requestKeyOf("x") }] }),
    );
    const refused = await runWeft(["send", bad, "--node", url]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain("the node answered 400");
    expect(refused.stderr).toContain("does not match cmd");
    const down = await runWeft([
      "poll",
      "A".repeat(43),
      "--node",
      "http://127.0.0.1:1/x",
      "--chain",
      "0",
    ]);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain("cannot reach the node");
    expect((await runWeft(["send", bad])).code).toBe(2);
    expect((await runWeft(["poll", "A".repeat(43), "--node", url])).code).toBe(2);
    expect((await runWeft(["local", bad, "--node", url, "--bogus"])).code).toBe(2);
    expect((await runWeft(["send", files.write("x.json", "{"), "--node", url])).code).toBe(1);
    expect((await runWeft(["send", "--help"])).stdout).toContain("weft send FILE.json");
  });

  it("takes a request key that starts with '-' (1 in 64 do) as a key, not an option", async () => {
    const dashKey = `-${"A".repeat(42)}`;
    for (const verb of ["poll", "listen"]) {
      const r = await runWeft([verb, dashKey, "--node", "http://127.0.0.1:1/x", "--chain", "0"]);
      expect(r.stderr).not.toContain("unknown option");
      expect(r.stderr).toContain("cannot reach the node");
    }
    // After "--" nothing is an option.
    const afterDashes = await runWeft([
      "poll",
      "--node",
      "http://127.0.0.1:1/x",
      "--chain",
      "0",
      "--",
      `--${"B".repeat(41)}`,
    ]);
    expect(afterDashes.stderr).toContain("cannot reach the node");
    // Other dashed words are still refused as unknown options.
    expect((await runWeft(["poll", "-x", "--node", "http://127.0.0.1:1/x"])).stderr).toContain(
      "unknown option -x",
    );
  });
});

async function postLocal(url: string, body: string): Promise<{ status: number; json: unknown }> {
  const r = await fetch(url, {
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
  });
  return { status: r.status, json: JSON.parse(await r.text()) };
}

describe("[cli] weft -s (standalone server)", () => {
  const files = tempDir();
  afterAll(() => rmSync(files.dir, { recursive: true, force: true }));

  it("reads its configuration, refusing unknown keys and bad values", () => {
    expect(
      readStandaloneConfig(files.write("a.yaml", "port: 0\ngasLimit: 1000\npersistDir: x\n")),
    ).toEqual({
      port: 0,
      host: "127.0.0.1",
      gasLimit: 1000,
      gasRate: 0,
    });
    expect(readStandaloneConfig(files.write("empty.yaml", "")).port).toBe(8080);
    expect(() => readStandaloneConfig(files.write("b.yaml", "prot: 1\n"))).toThrow(/prot/);
    expect(() => readStandaloneConfig(files.write("c.yaml", "port: 70000\n"))).toThrow(/port/);
  });

  it("answers POST /api/v1/local with {status, response: {status, data}}", async () => {
    const server = await startStandaloneServer({
      port: 0,
      host: "127.0.0.1",
      gasLimit: undefined,
      gasRate: 0,
    });
    try {
      const local = `${server.url}/api/v1/local`;
      const ok = await postLocal(
        local,
        JSON.stringify(signedCommand({ code: "(+ 1 2)", network: null })),
      );
      expect(ok).toEqual({
        status: 200,
        json: { status: "success", response: { status: "success", data: 3 } },
      });
      const module = signedCommand({
        code: "(module m g (defcap g () true) (defun f () 7)) (m.f)",
        network: null,
      });
      expect((await postLocal(local, JSON.stringify(module))).json).toEqual({
        status: "success",
        response: { status: "success", data: 7 },
      });
      const failed = await postLocal(
        local,
        JSON.stringify(signedCommand({ code: '(enforce false "no")' })),
      );
      expect((failed.json as { response: { status: string } }).response.status).toBe("failure");
      const bad = await postLocal(local, JSON.stringify({ cmd: "{}", hash: "x", sigs: [] }));
      expect(bad.status).toBe(400);
      expect((bad.json as { status: string }).status).toBe("failure");
      expect((await postLocal(local, "{")).status).toBe(400);
      expect((await postLocal(`${server.url}/api/v1/send`, "{}")).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it("runs as weft -s until stopped", async () => {
    let stdout = "";
    let stderr = "";
    const io: CliIo = {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      readStdin: async () => "",
      now: () => new Date(),
    };
    const s = fakeSignals();
    const done = standaloneCommand([files.write("s.yaml", "port: 0\n")], io, s.signals);
    for (let i = 0; i < 200 && !stdout.includes("\n"); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/local\n$/);
    const r = await postLocal(stdout.trim(), JSON.stringify(signedCommand({ code: "(+ 2 2)" })));
    expect(r.json).toEqual({ status: "success", response: { status: "success", data: 4 } });
    s.send("SIGINT");
    expect(await done).toBe(0);
    expect(stderr).toContain("stopped");
    expect((await runWeft(["-s"])).code).toBe(2);
    expect((await runWeft(["-s", files.write("bad.yaml", "nope: 1\n")])).code).toBe(1);
  });
});
