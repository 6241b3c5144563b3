/**
 * The node's lifecycle (src-node/runtime/lifecycle.ts, node.ts): every service is
 * registered in start order on one stack, the shutdown order is that one list (stops, then
 * closes, each in reverse), every module that can be closed is on it, and both paths unwind
 * it: a normal close, and a start that fails right after any of its steps (the failure
 * injected through the lifecycle's probe), after which nothing is left open: the data
 * folder's lock is free and the app token's file is gone.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDataLock } from "../../src-node/backup/dataLock.ts";
import { type CreateNodeOptions, createNode } from "../../src-node/node.ts";
import { Lifecycle, type LifecyclePhase } from "../../src-node/runtime/lifecycle.ts";
import { tempDir } from "../support/testNode.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Options that open every optional service: backups, the mining API's streams, the compactor, a peer port. */
function fullOptions(): CreateNodeOptions {
  const dir = tempDir();
  dirs.push(dir);
  const backups = join(dir, "backups");
  mkdirSync(backups);
  return {
    network: "test-singleton",
    dataDir: dir,
    host: "127.0.0.1",
    port: 0,
    executionWorkers: 0,
    backup: { directory: backups },
    mining: { apiEnabled: true },
    p2p: { port: 0 },
  };
}

/** Every step of a node's start, in order (the peer port's server comes with `start()`). */
const START_ORDER = [
  "lock",
  "appTokenFile",
  "blocks",
  "state",
  "executor",
  "compactor",
  "execution",
  "mempoolStore",
  "commands",
  "private",
  "backup",
  "index",
  "appBackups",
  "mining",
  "miningStreams",
  "miner",
  "p2p",
  "dappSigning",
  "server",
  "appAddressFile",
  "p2pServer",
];

/** The one shutdown order: what holds work or requests stops, then everything closes. */
const SHUTDOWN_ORDER = [
  "stop p2pServer",
  "stop dappSigning",
  "stop p2p",
  "stop miner",
  "stop miningStreams",
  "stop commands",
  "close appAddressFile",
  "close server",
  "close mining",
  "close appBackups",
  "close index",
  "close backup",
  "close private",
  "close mempoolStore",
  "close execution",
  "close compactor",
  "close executor",
  "close state",
  "close blocks",
  "close appTokenFile",
  "close lock",
];

describe("[node] lifecycle", () => {
  it("unwinds one stack: stops, then closes, in reverse, each once, and every step despite a failing one", async () => {
    const ran: string[] = [];
    const life = new Lifecycle({ ran: (name, phase) => ran.push(`${phase} ${name}`) });
    life.add("a", { close: () => {} });
    life.add("b", {
      stop: () => {
        throw new Error("b will not stop");
      },
    });
    life.add("c", { stop: async () => {}, close: async () => {} });
    expect(() => life.add("a", {})).toThrow(/registered twice/);
    expect(life.shutdownOrder()).toEqual(["stop c", "stop b", "close c", "close a"]);
    await expect(life.unwind()).rejects.toThrow("b will not stop");
    expect(ran).toEqual(life.shutdownOrder());
    await expect(life.unwind()).rejects.toThrow("b will not stop");
    expect(ran).toHaveLength(4);
  });

  it("registers every service in start order, and closes them all in the one shutdown order", async () => {
    const ran: string[] = [];
    const node = await createNode({
      ...fullOptions(),
      lifecycleProbe: { ran: (name, phase) => ran.push(`${phase} ${name}`) },
    });
    try {
      expect(node.lifecycle.names).toEqual(START_ORDER);
      expect(node.lifecycle.shutdownOrder()).toEqual(SHUTDOWN_ORDER);
      // Every module that can be closed is on the stack, under its key.
      const closable = Object.entries(node.modules)
        .filter(([, m]) => typeof (m as { close?: unknown } | undefined)?.close === "function")
        .map(([key]) => key);
      expect(closable.length).toBeGreaterThan(15);
      for (const key of closable) expect(node.lifecycle.names, key).toContain(key);
    } finally {
      await node.close();
    }
    expect(ran).toEqual(SHUTDOWN_ORDER);
    expect(existsSync(node.appTokenFile)).toBe(false);
    expect(existsSync(node.appAddressFile)).toBe(false);
    acquireDataLock(join(node.options.dataDir, "test-singleton"), "node").release();
  });

  it("unwinds what it opened when the start fails after any step", async () => {
    for (const [i, failing] of START_ORDER.entries()) {
      const opened: string[] = [];
      const ran: string[] = [];
      const injected = new Error(`injected after ${failing}`);
      const options = fullOptions();
      const start = createNode({
        ...options,
        lifecycleProbe: {
          opened: (name) => {
            opened.push(name);
            if (name === failing) throw injected;
          },
          ran: (name: string, phase: LifecyclePhase) => ran.push(`${phase} ${name}`),
        },
      });
      await expect(start, failing).rejects.toBe(injected);
      const started = START_ORDER.slice(0, i + 1);
      expect(opened, failing).toEqual(started);
      expect(ran, failing).toEqual(
        SHUTDOWN_ORDER.filter((step) => started.includes(step.split(" ")[1] as string)),
      );
      const networkDir = join(options.dataDir as string, "test-singleton");
      expect(existsSync(join(networkDir, "app-token")), failing).toBe(false);
      expect(existsSync(join(networkDir, "app-address")), failing).toBe(false);
      // The lock is free: a next node (or a restore) may take the folder.
      acquireDataLock(networkDir, "node").release();
    }
  });
});
