/**
 * `npm start -- --headless` as a real process (`node dist/electron/launch.js --headless`,
 * the same command `npm start` runs after building): it prints the addresses (the UI's with a
 * one-time code), serves the UI to the browser that opened that address (and the page that
 * asks for the address to any other), its config.json, answers the ledger API, runs the
 * built-in miner when the UI's route asks (with the app token: the cookie the code was
 * exchanged for, or the token file `curl` users read), `weft app-url` makes new addresses,
 * and on SIGTERM ends open event streams and worker threads and exits by itself with
 * code 0. A busy port makes it exit with a message instead. The app's restart brings the
 * node back on the same port with the same app token (docs/desktop.md §3.4).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { rendererCspHeader } from "../../electron/security/csp.ts";
import { requestAppUrl } from "../../src-node/cli/appUrl.ts";
import {
  compileLauncher,
  type HeadlessProcess,
  runLauncher,
  startHeadless,
  waitForExit,
} from "./support/headlessProcess.ts";

const KEY = "cd".repeat(32);
let dataDir: string;
const running: HeadlessProcess[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "weft-e2e-headless-"));
  await compileLauncher();
}, 120_000);
afterEach(() => {
  for (const p of running.splice(0)) p.kill();
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function launch(extra: readonly string[] = []): Promise<HeadlessProcess> {
  return startHeadless([
    "--network",
    "test-singleton",
    "--data-dir",
    dataDir,
    "--renderer-dir",
    inject("rendererDir"),
    ...extra,
  ]).then((p) => {
    running.push(p);
    return p;
  });
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("[e2e] npm start -- --headless (a real process)", () => {
  it("prints the address, serves the UI, mines on request and stops cleanly on SIGTERM", async () => {
    const p = await launch(["--port", "0"]);
    expect(p.output()).toContain("Weft node running (test-singleton).");
    expect(p.appUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/app\/$/);
    expect(p.codeUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/app\/\?code=[A-Za-z0-9_-]{32}$/);
    expect(p.baseUrl).toBe(`${p.origin}/ledger/0.0/test-singleton`);
    expect(p.output()).toContain(
      `A new one: npx weft app-url --data-dir ${dataDir} --network test-singleton`,
    );

    // Loading the page with nothing in hand hands out nothing: it says where the address is.
    const locked = await fetch(p.appUrl);
    expect(locked.status).toBe(200);
    expect(locked.headers.get("set-cookie")).toBeNull();
    expect(locked.headers.get("content-security-policy")).toBe(rendererCspHeader);
    const lockedText = await locked.text();
    expect(lockedText).toContain("Open Weft from its address");
    expect(lockedText).toContain(`weft app-url --data-dir ${dataDir} --network test-singleton`);
    // The printed address hands the app token to the browser, once; the same token is in the
    // 0600 file.
    const opened = await fetch(p.codeUrl, { redirect: "manual" });
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe("/app/");
    const port = new URL(p.origin).port;
    const setCookie = opened.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(
      new RegExp(
        `^weft-app-token-${port}=[A-Za-z0-9_-]{43}; Path=/app/; HttpOnly; SameSite=Strict$`,
      ),
    );
    const cookie = setCookie.split(";")[0] as string;
    const token = readFileSync(join(dataDir, "test-singleton", "app-token"), "utf8").trim();
    expect(cookie).toBe(`weft-app-token-${port}=${token}`);
    const again = await fetch(p.codeUrl, { redirect: "manual" });
    expect(again.status).toBe(200);
    expect(again.headers.get("set-cookie")).toBeNull();
    const page = await fetch(p.appUrl, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toBe(rendererCspHeader);
    expect(await page.text()).toBe(readFileSync(join(inject("rendererDir"), "index.html"), "utf8"));
    // weft app-url makes a new address from the token file.
    const fresh = await requestAppUrl({ dataDir, network: "test-singleton" });
    expect(fresh.url.startsWith(`${p.appUrl}?code=`)).toBe(true);
    expect((await fetch(fresh.url, { redirect: "manual" })).status).toBe(303);
    expect((await fetch(`${p.origin}/app/api/mining`)).status).toBe(403);
    const redirect = await fetch(`${p.origin}/app`, { redirect: "manual" });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get("location")).toBe("/app/");

    const config = await fetch(`${p.origin}/app/config.json`);
    expect(config.status).toBe(200);
    expect(await config.json()).toEqual({
      networkId: "test-singleton",
      apiVersion: "0.0",
      baseUrl: p.baseUrl,
    });
    expect((await fetch(`${p.baseUrl}/health-check`)).status).toBe(200);

    // An open header stream and running worker threads must not hold the process up.
    const stream = await fetch(`${p.baseUrl}/header/updates`);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = stream.body!.getReader();
    const streamEnded = (async () => {
      let events = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return events;
        events += new TextDecoder().decode(value).split("event:BlockHeader").length - 1;
      }
    })();
    const on = await fetch(`${p.origin}/app/api/mining`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ enabled: true, threads: 1, account: `k:${KEY}` }),
    });
    expect(on.status, await on.clone().text()).toBe(200);
    expect(await on.json()).toMatchObject({ enabled: true, threads: 1, account: `k:${KEY}` });
    await until(
      "mined blocks",
      async () => {
        const s = (await (
          await fetch(`${p.origin}/app/api/mining`, { headers: { "x-weft-app-token": token } })
        ).json()) as {
          blocksFound: number;
        };
        return s.blocksFound >= 5;
      },
      30_000,
    );

    const exit = await p.stop("SIGTERM");
    expect(exit, p.output()).toEqual({ code: 0, signal: null });
    expect(p.output()).toContain("Stopping the node…");
    expect(await streamEnded).toBeGreaterThanOrEqual(5);
    await expect(fetch(`${p.baseUrl}/health-check`)).rejects.toThrow();
  });

  it("restarts on the same port when the app asks, keeping the app token", async () => {
    const p = await launch(["--port", "0"]);
    const page = await fetch(p.codeUrl, { redirect: "manual" });
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const status = async () =>
      (await (await fetch(`${p.origin}/app/api/node/restart`, { headers: { cookie } })).json()) as {
        launchId: string;
        restartable: boolean;
      };
    const before = await status();
    expect(before.restartable).toBe(true);
    const r = await fetch(`${p.origin}/app/api/node/restart`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: "{}",
    });
    expect(r.status, await r.clone().text()).toBe(202);
    await until(
      "another launch on the same address",
      async () => {
        try {
          return (await status()).launchId !== before.launchId;
        } catch {
          return false;
        }
      },
      30_000,
    );
    // The node answers as soon as it listens; the launcher prints once its start has finished.
    await until(
      "the launcher to say it restarted",
      async () => p.output().includes(`Weft node restarted on ${p.appUrl}`),
      30_000,
    );
    expect((await fetch(`${p.baseUrl}/health-check`)).status).toBe(200);
    const exit = await p.stop("SIGTERM");
    expect(exit, p.output()).toEqual({ code: 0, signal: null });
  });

  it("exits with code 1 and says why when the port is taken", async () => {
    const first = await launch(["--port", "0"]);
    const port = new URL(first.origin).port;
    const second = runLauncher([
      "--network",
      "test-singleton",
      "--data-dir",
      mkdtempSync(join(dataDir, "second-")),
      "--port",
      port,
    ]);
    const exit = await waitForExit(second.child, 30_000);
    expect(exit, second.output()).toEqual({ code: 1, signal: null });
    expect(second.output()).toContain(`cannot listen on 127.0.0.1:${port}`);
    expect((await first.stop("SIGINT")).code).toBe(0);
  });
});
