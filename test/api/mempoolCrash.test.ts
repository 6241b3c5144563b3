/**
 * Commands /send accepted survive the node being killed: a real `weft node`
 * process takes a batch, is killed with SIGKILL before any block holds it,
 * and the next node on that data folder (now mining) mines every command.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { devAccount } from "../../src-node/genesis/devAccounts.ts";
import { signedCommand } from "../support/execChain.ts";
import { postJson } from "../support/postJson.ts";
import { tempDir } from "../support/testNode.ts";

const bin = resolve(import.meta.dirname, "..", "..", "bin", "weft.js");

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0))
    if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Starts `weft node` on `dataDir` and waits for the base URL it prints. */
async function startNode(
  dataDir: string,
  args: string[],
): Promise<{ child: ChildProcess; url: string }> {
  const argv = [bin, "node", "--network", "test-singleton", "--port", "0", "--data-dir", dataDir];
  const child = spawn(process.execPath, [...argv, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  let err = "";
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    err += c.toString();
  });
  for (let i = 0; i < 6000 && !out.includes("\n") && child.exitCode === null; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  const url = out.trim();
  expect(url, err).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ledger\/0\.0\/test-singleton$/);
  return { child, url };
}

async function killed(child: ChildProcess): Promise<void> {
  const exit = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exit;
}

describe("[mempool] a node killed with SIGKILL", () => {
  it("keeps the commands /send accepted and mines them after the restart", async () => {
    const d = tempDir("weft-mempool-crash-");
    dirs.push(d);
    const first = await startNode(d, []);
    const cmds = [1, 2, 3].map((n) =>
      JSON.parse(JSON.stringify(signedCommand({ code: `(+ ${n} 1)` }))),
    );
    const sent = await postJson(`${first.url}/chain/0/pact/api/v1/send`, { cmds });
    expect(sent.status, sent.text).toBe(200);
    const keys = (JSON.parse(sent.text) as { requestKeys: string[] }).requestKeys;
    expect(keys).toHaveLength(3);
    // Killed right after the answer: nothing but what /send wrote before answering is on disk.
    await killed(first.child);

    const second = await startNode(d, [
      "--mine",
      "--miner-account",
      `k:${devAccount(9).publicKey}`,
    ]);
    let results: Record<string, { result: { status: string } }> = {};
    for (let i = 0; i < 600 && Object.keys(results).length < 3; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const polled = await postJson(`${second.url}/chain/0/pact/api/v1/poll`, {
        requestKeys: keys,
      });
      expect(polled.status, polled.text).toBe(200);
      results = JSON.parse(polled.text) as typeof results;
    }
    expect(Object.keys(results).sort()).toEqual([...keys].sort());
    for (const k of keys) expect(results[k]?.result.status).toBe("success");
    await killed(second.child);
  }, 120_000);
});
