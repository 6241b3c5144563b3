/**
 * The node's supervisor (electron/nodeSupervisor.ts; docs/desktop.md §3.4): with fake nodes,
 * the order close → step → start, the same port and app token, the signing request hook, a step that fails, retries
 * while the address is busy, a restart that cannot start, close during a restart, the saved
 * settings read again on a restart (another port only when the saved one changed; unreadable
 * settings keep the running ones); with the real node, the app's `POST /app/api/node/restart`
 * brings it back on the same port (asked for as port 0) with the same token, as the headless
 * launcher and the desktop run it, and with the settings saved meanwhile applied.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { HostedNode, HostedNodeOptions, NodeRestartRequest } from "../../electron/nodeHost.ts";
import { NodeSupervisor, portOf } from "../../electron/nodeSupervisor.ts";
import { nodeOptionsOfSettings } from "../../electron/settings/nodeOptionsOfSettings.ts";
import { readSettingsFile, SettingsStore } from "../../electron/settings/settingsStore.ts";

type Started = { options: HostedNodeOptions; node: HostedNode };

function fakeHost(script: { failWith?: (attempt: number) => Error | null } = {}) {
  const events: string[] = [];
  const started: Started[] = [];
  let attempt = 0;
  const start = async (options: HostedNodeOptions): Promise<HostedNode> => {
    attempt++;
    const failure = script.failWith?.(attempt) ?? null;
    if (failure !== null) {
      events.push(`start failed ${attempt}`);
      throw failure;
    }
    const port = options.port === 0 ? 40000 + started.length : (options.port ?? 1848);
    const n = started.length;
    const node: HostedNode = {
      baseUrl: `http://127.0.0.1:${port}/ledger/0.0/development`,
      appUrl: `http://127.0.0.1:${port}/app/`,
      appCodeUrl: () => `http://127.0.0.1:${port}/app/?code=${"c".repeat(32)}`,
      appUrlCommandLine: "weft app-url --data-dir /data --network development",
      appToken: options.appToken ?? `token-${n}`,
      close: async () => {
        events.push(`close ${n}`);
      },
    };
    events.push(`start ${n}`);
    started.push({ options, node });
    return node;
  };
  return { events, started, start };
}

function coded(code: string): Error {
  return Object.assign(new Error(code), { code });
}

const base: HostedNodeOptions = { network: "development", dataDir: "/tmp/x", port: 0 };

describe("[electron] node supervisor", () => {
  it("closes, runs the step, starts again on the same port with the same token", async () => {
    const host = fakeHost();
    const restarted: HostedNode[] = [];
    const s = new NodeSupervisor({
      options: base,
      start: host.start,
      onRestarted: (n) => restarted.push(n),
    });
    const first = await s.start();
    expect(typeof host.started[0]?.options.restart).toBe("function");
    await s.restart({
      reason: "restore",
      whileStopped: async () => {
        host.events.push("step");
      },
    });
    expect(host.events).toEqual(["start 0", "close 0", "step", "start 1"]);
    const again = host.started[1];
    expect(again?.options.port).toBe(portOf(first));
    expect(again?.options.appToken).toBe(first.appToken);
    expect(s.node).toBe(again?.node);
    expect(restarted).toEqual([again?.node]);
  });

  it("hands every node it starts the host's signing request hook, reloaded options too", async () => {
    const host = fakeHost();
    const told: string[] = [];
    const s = new NodeSupervisor({
      options: base,
      // Saved settings read again carry no hooks of the host.
      reload: () => ({ ...base }),
      start: host.start,
      onSignRequest: (r) => told.push(r.id),
    });
    await s.start();
    await s.restart({ reason: "restart" });
    for (const [i, started] of host.started.entries()) {
      started.options.onSignRequest?.({ id: `r${i}`, kind: "sign", origin: null });
    }
    expect(told).toEqual(["r0", "r1"]);
  });

  it("starts the node even when the step fails, and the node's own restart hook works", async () => {
    const host = fakeHost();
    const s = new NodeSupervisor({ options: base, start: host.start });
    await s.start();
    const hook = host.started[0]?.options.restart as (r: NodeRestartRequest) => void;
    hook({
      reason: "restore",
      whileStopped: async () => {
        throw new Error("disk gone");
      },
    });
    // A second request while the first runs joins it.
    hook({ reason: "restart" });
    await s.close();
    expect(host.events).toEqual(["start 0", "close 0", "start 1", "close 1"]);
  });

  it("tries again while the address is busy, and gives up on other failures", async () => {
    const busy = fakeHost({
      failWith: (a) => (a === 2 || a === 3 ? coded("API_LISTEN_FAILED") : null),
    });
    const s = new NodeSupervisor({ options: base, start: busy.start, retryDelayMs: 1 });
    await s.start();
    await s.restart({ reason: "restart" });
    expect(busy.events).toEqual([
      "start 0",
      "close 0",
      "start failed 2",
      "start failed 3",
      "start 1",
    ]);

    const broken = fakeHost({ failWith: (a) => (a >= 2 ? coded("STORE_CORRUPT") : null) });
    const failures: unknown[] = [];
    const t = new NodeSupervisor({
      options: base,
      start: broken.start,
      retryDelayMs: 1,
      onRestartFailed: (e) => failures.push(e),
    });
    await t.start();
    await t.restart({ reason: "restart" });
    expect(broken.events).toEqual(["start 0", "close 0", "start failed 2"]);
    expect(failures).toHaveLength(1);
    expect(t.node).toBeNull();
    await t.close();
  });

  it("starts again with the settings read again: another port only when the saved port changed", async () => {
    const host = fakeHost();
    let saved: HostedNodeOptions = { ...base, port: 0 };
    const s = new NodeSupervisor({ options: saved, reload: () => saved, start: host.start });
    const first = await s.start();
    // Another setting, the same saved port (0): the port the node listened on is kept.
    saved = { ...saved, mining: { enabled: false, apiEnabled: true } };
    await s.restart({ reason: "restart" });
    expect(host.started[1]?.options).toMatchObject({
      port: portOf(first),
      mining: { apiEnabled: true },
      appToken: first.appToken,
    });
    // A restore wrote into the running node's data folder: it starts on the same options.
    saved = { ...saved, port: 18_555, dataDir: "/tmp/elsewhere" };
    await s.restart({ reason: "restore" });
    expect(host.started[2]?.options).toMatchObject({ port: portOf(first), dataDir: "/tmp/x" });
    // A new saved port: the node moves there (and to the new data folder).
    await s.restart({ reason: "restart" });
    expect(host.started[3]?.options).toMatchObject({ port: 18_555, dataDir: "/tmp/elsewhere" });
    expect(s.node?.appUrl).toBe("http://127.0.0.1:18555/app/");
    // Settings that cannot be read: the running node's options again.
    const t = new NodeSupervisor({
      options: saved,
      reload: () => {
        throw new Error("settings.json: bad JSON");
      },
      start: host.start,
    });
    await t.start();
    await t.restart({ reason: "restart" });
    expect(host.started[5]?.options).toMatchObject({ port: 18_555, mining: { apiEnabled: true } });
    await t.close();
    await s.close();
  });
});

const dataDir = mkdtempSync(join(tmpdir(), "weft-supervisor-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function restartStatus(origin: string, token: string) {
  const r = await fetch(`${origin}/app/api/node/restart`, {
    headers: { "x-weft-app-token": token },
  });
  return (await r.json()) as { launchId: string; restartable: boolean };
}

describe("[electron] node supervisor with the real node", () => {
  it("restarts the node the app asks to restart on the same address, token kept", async () => {
    const s = new NodeSupervisor({
      options: { network: "test-singleton", dataDir, host: "127.0.0.1", port: 0 },
    });
    const first = await s.start();
    try {
      const origin = new URL(first.baseUrl).origin;
      const before = await restartStatus(origin, first.appToken);
      expect(before.restartable).toBe(true);
      const r = await fetch(`${origin}/app/api/node/restart`, {
        method: "POST",
        headers: { "x-weft-app-token": first.appToken, "content-type": "application/json" },
        body: "{}",
      });
      expect(r.status).toBe(202);
      // Wait for the new launch on the same origin (polling: the node is briefly away).
      let after: { launchId: string } | null = null;
      for (let i = 0; i < 200 && after === null; i++) {
        try {
          const status = await restartStatus(origin, first.appToken);
          if (status.launchId !== before.launchId) after = status;
        } catch {
          // restarting
        }
        if (after === null) await new Promise((done) => setTimeout(done, 100));
      }
      expect(after).not.toBeNull();
      expect(s.node?.baseUrl).toBe(first.baseUrl);
      const health = await fetch(`${first.baseUrl}/health-check`);
      expect(health.status).toBe(200);
    } finally {
      await s.close();
    }
    await expect(fetch(`${first.baseUrl}/health-check`)).rejects.toThrow();
  });

  it("applies settings saved while it runs on Restart node (public APIs, port)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "weft-supervisor-settings-"));
    const file = join(dir, "settings.json");
    // As the desktop saves them (SettingsStore) and the launcher's --settings reads them.
    const store = new SettingsStore(file, { warn: () => {} });
    store.write({ network: "development", dataDir: join(dir, "data"), port: 0 });
    const optionsNow = () =>
      nodeOptionsOfSettings(readSettingsFile(file), { defaultDataDir: join(dir, "unused") });
    const s = new NodeSupervisor({ options: optionsNow(), reload: optionsNow });
    const first = await s.start();
    try {
      const status = async (node: HostedNode) => {
        const r = await fetch(`${new URL(node.baseUrl).origin}/app/api/node/status`, {
          headers: { "x-weft-app-token": node.appToken },
        });
        return (await r.json()) as { publicApis: { mining: boolean; backup: boolean } };
      };
      const solved = (node: HostedNode) =>
        fetch(`${node.baseUrl}/mining/solved`, {
          method: "POST",
          headers: { "content-type": "application/octet-stream" },
          body: new Uint8Array(1),
        });
      expect((await status(first)).publicApis).toEqual({ mining: false, backup: false });
      expect((await solved(first)).status).toBe(404);

      // Saved while it runs: nothing changes until the restart.
      store.write({ miningApi: true, backupApi: true, backupDir: join(dir, "backups") });
      expect((await status(first)).publicApis).toEqual({ mining: false, backup: false });
      await s.restart({ reason: "restart" });
      const second = s.node as HostedNode;
      expect(second.baseUrl).toBe(first.baseUrl);
      expect((await status(second)).publicApis).toEqual({ mining: true, backup: true });
      // The public mining API is served: a short solution is refused as such, not unknown.
      expect((await solved(second)).status).toBe(400);

      // A new port: the node moves there, same token.
      const port = await freePort();
      store.write({ port });
      await s.restart({ reason: "restart" });
      const third = s.node as HostedNode;
      expect(portOf(third)).toBe(port);
      expect(third.appToken).toBe(first.appToken);
      expect((await fetch(`${third.baseUrl}/health-check`)).status).toBe(200);
      await expect(fetch(`${first.baseUrl}/health-check`)).rejects.toThrow();
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** A port free a moment ago (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => done(port));
    });
  });
}
