/**
 * Issue 15 finding 3 in a real browser: a page on another origin (here
 * `http://127.0.0.1:<other port>`, same site as the node, so even the UI's
 * SameSite=Strict app-token cookie goes along) sends "simple" POSTs with
 * `fetch(…, {mode: 'no-cors'})`, which need no preflight: to start backups,
 * to submit a valid mining solution and to turn the built-in miner on. The
 * browser sends them (the page cannot read the answers), so the node must
 * refuse them itself: no backup folder appears, the chain does not grow and
 * the miner stays off. The same requests from `curl`-like clients (no
 * Origin) still work, and the node's own page still drives the miner.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { workHeaderOf } from "../../src-node/chain/workBytes.ts";
import { createNode, type WeftNode } from "../../src-node/node.ts";
import { launchChromium } from "./support/browser.ts";

const KEY = "ef".repeat(32);
const MINER = { account: `k:${KEY}`, predicate: "keys-all", "public-keys": [KEY] };

let dataDir: string;
let backups: string;
let node: WeftNode;
let attacker: Server;
let attackerOrigin: string;
let browser: Browser;
let context: BrowserContext;
/** The page the attacker serves; set per test. */
let attackPage = "";

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "weft-e2e-cross-"));
  backups = mkdtempSync(join(tmpdir(), "weft-e2e-cross-backups-"));
  node = await createNode({
    network: "test-singleton",
    dataDir,
    host: "127.0.0.1",
    port: 0,
    rendererDir: inject("rendererDir"),
    mining: { enabled: false, threads: 1, account: `k:${KEY}`, apiEnabled: true },
    backup: { apiEnabled: true, directory: backups },
  });
  attacker = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(attackPage);
  });
  await new Promise<void>((done) => attacker.listen(0, "127.0.0.1", done));
  attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  browser = await launchChromium();
  context = await browser.newContext();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await new Promise((done) => attacker?.close(done));
  await node?.close();
  for (const d of [dataDir, backups])
    if (d !== undefined) rmSync(d, { recursive: true, force: true });
});

/** Valid solved work for `chain` (on test-singleton every nonce meets the target). */
async function solvedWork(chain: number): Promise<Uint8Array> {
  const url = new URL(`${node.baseUrl}/mining/work?chain=${chain}`);
  const body = await new Promise<Buffer>((done, fail) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: "GET",
        headers: {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(JSON.stringify(MINER))),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          res.statusCode === 200
            ? done(Buffer.concat(chunks))
            : fail(new Error(`work: ${res.statusCode} ${Buffer.concat(chunks).toString()}`)),
        );
      },
    );
    req.on("error", fail);
    req.end(JSON.stringify(MINER));
  });
  return workHeaderOf(new Uint8Array(body));
}

/** Loads the attacker's page, which runs `script` and sets the title to "done" when it ends. */
async function runOnOtherOrigin(script: string): Promise<string[]> {
  attackPage = `<!doctype html><meta charset="utf-8"><title>attack</title><script>
    const log = [];
    (async () => {
      ${script}
      document.title = "done";
    })().catch((e) => { log.push("script error " + e.message); document.title = "done"; });
    window.__log = log;
  </script>`;
  const page = await context.newPage();
  try {
    await page.goto(`${attackerOrigin}/`);
    await page.waitForFunction('document.title === "done"', undefined, { timeout: 20_000 });
    return (await page.evaluate("window.__log")) as string[];
  } finally {
    await page.close();
  }
}

describe("[e2e] a page on another origin cannot drive the node", () => {
  it("cannot start a backup, submit a solution or turn the miner on with no-cors POSTs", async () => {
    const cookieName = `weft-app-token-${new URL(node.appUrl).port}`;
    const app = await context.newPage();
    // Loading /app/ with nothing in hand gives the browser nothing: the page says where the
    // address is.
    await app.goto(node.appUrl);
    await app.getByRole("heading", { level: 1, name: "Open Weft from its address" }).waitFor();
    expect((await context.cookies(node.appUrl)).map((c) => c.name)).not.toContain(cookieName);
    // The user opens the address the node printed: the browser holds the app-token cookie,
    // and the address bar the clean address.
    await app.goto(node.appCodeUrl());
    await app.getByRole("heading", { level: 1, name: "Node" }).waitFor();
    expect(app.url().startsWith(node.appUrl)).toBe(true);
    expect(app.url()).not.toContain("code=");
    await app.close();
    const cookies = await context.cookies(node.appUrl.replace("/app/", "/app/api/mining"));
    expect(cookies.map((c) => c.name)).toContain(cookieName);

    const solved = await solvedWork(3);
    const heightBefore = node.blocks.cut().get(3)?.height;
    const base = node.baseUrl;
    const origin = new URL(node.appUrl).origin;
    const log = await runOnOtherOrigin(`
      const send = async (name, url, init) => {
        try {
          await fetch(url, { method: "POST", mode: "no-cors", credentials: "include", ...init });
          log.push(name + " sent");
        } catch (e) {
          log.push(name + " failed " + e.message);
        }
      };
      await send("backup text", ${JSON.stringify(`${base}/make-backup`)}, { body: "x" });
      await send("backup empty", ${JSON.stringify(`${base}/make-backup?backupPact`)}, {});
      await send("backup form", ${JSON.stringify(`${base}/make-backup`)}, {
        headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=1" });
      await send("solved", ${JSON.stringify(`${base}/mining/solved`)}, {
        body: new Uint8Array(${JSON.stringify([...solved])}) });
      await send("solved typed", ${JSON.stringify(`${base}/mining/solved`)}, {
        headers: { "content-type": "text/plain" }, body: new Uint8Array(${JSON.stringify([...solved])}) });
      await send("miner", ${JSON.stringify(`${origin}/app/api/mining`)}, {
        headers: { "content-type": "text/plain" }, body: '{"enabled":true,"threads":4}' });
    `);
    // The browser did send them (no-cors hides the answers, not the requests).
    expect(log).toEqual([
      "backup text sent",
      "backup empty sent",
      "backup form sent",
      "solved sent",
      "solved typed sent",
      "miner sent",
    ]);
    await node.backup?.settled();
    expect(readdirSync(backups)).toEqual([]);
    expect(node.blocks.cut().get(3)?.height).toBe(heightBefore);
    expect(node.miner.status()).toMatchObject({ enabled: false, threads: 1 });

    // The same solution from a miner (no Origin, octet-stream) is a valid block.
    const miner = await fetch(`${base}/mining/solved`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: solved,
    });
    expect(miner.status).toBe(204);
    expect(node.blocks.cut().get(3)?.height).toBe((heightBefore ?? 0) + 1);
    // And curl still starts a backup.
    const curl = await fetch(`${base}/make-backup`, { method: "POST" });
    expect(curl.status).toBe(200);
    await node.backup?.settled();
    expect(readdirSync(backups)).toHaveLength(1);
  });

  it("still lets the node's own page drive the miner (the cookie set by its one-time address)", async () => {
    const app = await context.newPage();
    try {
      await app.goto(node.appUrl);
      await app.getByRole("heading", { level: 1, name: "Node" }).waitFor();
      const status = await app.evaluate(async () => {
        const r = await fetch("/app/api/mining", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ threads: 2 }),
        });
        return { status: r.status, body: (await r.json()) as { threads: number } };
      });
      expect(status.status).toBe(200);
      expect(status.body.threads).toBe(2);
      expect(node.miner.status().threads).toBe(2);
    } finally {
      await app.close();
    }
  });
});
