/**
 * The app token reaches a browser only for a one-time code (issue 35 finding 1; docs/node.md
 * "The app token"; api/appCodes.ts, api/routes/appUiRoutes.ts, cli/appUrl.ts): `/app/` with
 * nothing in hand, a wrong code, a used code, an expired code or a client on another computer
 * gets the page that says where the address is and no cookie; a code that works is exchanged
 * once for the cookie with a 303 to the clean address; `--app-remote` lets another computer
 * in with a code, and its cookie then opens the API; `weft app-url` prints an address that
 * works once.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { AppCodes } from "../../src-node/api/appCodes.ts";
import { APP_CSP_HEADER } from "../../src-node/api/appCsp.ts";
import { requestAppUrl } from "../../src-node/cli/appUrl.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";
import { runWeft } from "../unit/cliHarness.ts";

const open: TestNode[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fakeBuild(): string {
  const dir = tempDir("weft-app-codes-ui-");
  dirs.push(dir);
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>the app</title>");
  return dir;
}

async function node(options: Parameters<typeof openTestNode>[0] = {}): Promise<TestNode> {
  const t = await openTestNode({ rendererDir: fakeBuild(), ...options });
  open.push(t);
  return t;
}

const HOST = "127.0.0.1:1848";

function get(
  t: TestNode,
  url: string,
  options: { remoteAddress?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return t.node.server.inject({
    method: "GET",
    url,
    headers: { host: HOST, ...options.headers },
    ...(options.remoteAddress === undefined ? {} : { remoteAddress: options.remoteAddress }),
  });
}

/** The locked page: HTML, the app's CSP, no cookie, and the words of `lead`. */
function expectLocked(r: LightMyRequestResponse, lead: RegExp): void {
  expect(r.statusCode, r.body).toBe(200);
  expect(r.headers["set-cookie"]).toBeUndefined();
  expect(r.headers["content-type"]).toBe("text/html; charset=utf-8");
  expect(r.headers["cache-control"]).toBe("no-store");
  expect(r.headers["content-security-policy"]).toBe(APP_CSP_HEADER);
  expect(r.body).toMatch(/<h1>Open Weft from its address<\/h1>/);
  expect(r.body).toMatch(lead);
}

function cookieOf(r: LightMyRequestResponse): string {
  const set = r.headers["set-cookie"];
  expect(typeof set).toBe("string");
  return (set as string).split(";")[0] as string;
}

describe("[api] /app/ without a code that works hands out nothing", () => {
  it("a plain load, the index file and a HEAD get the page that says where the address is", async () => {
    const t = await node();
    const plain = await get(t, "/app/");
    expectLocked(plain, /it ends in <code>\/app\/\?code=…<\/code>/);
    // This computer is told the exact command, with the node's own data folder.
    expect(plain.body).toContain(`weft app-url --data-dir ${t.dir} --network test-singleton`);
    expect(plain.body).toContain("UI: http://127.0.0.1:1848/app/?code=…");
    expect(plain.body).not.toContain(t.node.appToken);
    expectLocked(await get(t, "/app/index.html"), /it ends in/);
    const head = await t.node.server.inject({
      method: "HEAD",
      url: "/app/",
      headers: { host: HOST },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers["set-cookie"]).toBeUndefined();
    // The bundled files are the same for everyone; the page's stylesheet is its own.
    const css = await get(t, "/app/locked.css");
    expect(css.statusCode).toBe(200);
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(css.body).toMatch(/prefers-color-scheme: dark/);
    expect(plain.body).toContain('<link rel="stylesheet" href="/app/locked.css">');
  });

  it("a wrong code, a malformed one, a used one and an expired one are refused without a cookie", async () => {
    const t = await node();
    expectLocked(await get(t, `/app/?code=${"A".repeat(32)}`), /no longer works/);
    expectLocked(await get(t, "/app/?code=x"), /no longer works/);
    expectLocked(await get(t, "/app/?code="), /no longer works/);
    const code = t.node.issueAppCode();
    expect((await get(t, `/app/?code=${code}`)).statusCode).toBe(303);
    expectLocked(await get(t, `/app/?code=${code}`), /no longer works/);
    expectLocked(await get(t, `/app/index.html?code=${code}`), /no longer works/);
    const expired = t.node.issueAppCode(0);
    expectLocked(await get(t, `/app/?code=${expired}`), /no longer works/);
  });

  it("a client on another computer gets no cookie for a good code, and the code stays its owner's", async () => {
    const t = await node();
    const code = t.node.issueAppCode();
    for (const remoteAddress of ["192.168.1.7", "10.0.0.2", "::ffff:192.168.1.7"]) {
      const r = await get(t, `/app/?code=${code}`, { remoteAddress });
      expectLocked(r, /opens the app only for the computer it runs on/);
      expect(r.body).toContain("ssh -N -L 1848:127.0.0.1:1848 you@server");
      // Another computer is not told where the data folder is.
      expect(r.body).not.toContain(t.dir);
      expectLocked(await get(t, "/app/", { remoteAddress }), /only for the computer it runs on/);
    }
    // Not used up: the owner on this computer still opens the app with it.
    expect((await get(t, `/app/?code=${code}`)).statusCode).toBe(303);
  });
});

describe("[api] a code that works is exchanged once for the cookie", () => {
  it("answers 303 to the clean address with the HttpOnly cookie, which opens the page and the API", async () => {
    const t = await node();
    const r = await get(t, `/app/?code=${t.node.issueAppCode()}`);
    expect(r.statusCode).toBe(303);
    expect(r.headers.location).toBe("/app/");
    expect(r.headers["cache-control"]).toBe("no-store");
    expect(r.headers["referrer-policy"]).toBe("no-referrer");
    expect(r.headers["set-cookie"]).toBe(
      `weft-app-token-1848=${t.node.appToken}; Path=/app/; HttpOnly; SameSite=Strict`,
    );
    const cookie = cookieOf(r);
    const page = await get(t, "/app/", { headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe("<!doctype html><title>the app</title>");
    expect(page.headers["set-cookie"]).toBeUndefined();
    expect((await get(t, "/app/api/mining", { headers: { cookie } })).statusCode).toBe(200);
    // Opening an old address again with the cookie in hand only cleans the address.
    const again = await get(t, `/app/?code=${"B".repeat(32)}`, { headers: { cookie } });
    expect(again.statusCode).toBe(303);
    expect(again.headers["set-cookie"]).toBeUndefined();
    // `/app` keeps the code on its way to `/app/`.
    const code = t.node.issueAppCode();
    const slashless = await get(t, `/app?code=${code}`);
    expect(slashless.statusCode).toBe(301);
    expect(slashless.headers.location).toBe(`/app/?code=${code}`);
  });

  it("POST /app/api/app-code makes a code for whoever holds the token, good for five minutes", async () => {
    const t = await node();
    const post = (headers: Record<string, string>) =>
      t.node.server.inject({
        method: "POST",
        url: "/app/api/app-code",
        headers: { host: HOST, "content-type": "application/json", ...headers },
        payload: "{}",
      });
    const refused = await post({});
    expect(refused.statusCode).toBe(403);
    expect(JSON.parse(refused.body).code).toBe("APP_TOKEN_REQUIRED");
    const before = Date.now();
    const r = await post({ "x-weft-app-token": t.node.appToken });
    expect(r.statusCode).toBe(200);
    const answer = JSON.parse(r.body) as { code: string; expiresAt: string };
    expect(answer.code).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const lifetime = Date.parse(answer.expiresAt) - before;
    expect(lifetime).toBeGreaterThan(4.9 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(5 * 60_000 + 1000);
    expect((await get(t, `/app/?code=${answer.code}`)).statusCode).toBe(303);
  });
});

describe("[api] --app-remote", () => {
  it("lets another computer in with a code; its cookie opens the API, which stays shut without it", async () => {
    const t = await node({ appRemote: true, allowedHosts: ["weft.example.org"] });
    const remoteAddress = "192.168.1.7";
    const headers = { host: "weft.example.org:1848" };
    expectLocked(await get(t, "/app/", { remoteAddress, headers }), /it ends in/);
    const r = await get(t, `/app/?code=${t.node.issueAppCode()}`, { remoteAddress, headers });
    expect(r.statusCode).toBe(303);
    const cookie = cookieOf(r);
    const api = (h: Record<string, string>) =>
      get(t, "/app/api/mining", { remoteAddress, headers: { ...headers, ...h } });
    expect((await api({ cookie })).statusCode).toBe(200);
    expect((await api({})).statusCode).toBe(403);
    // The Host must still name the node (DNS rebinding).
    const rebound = await get(t, "/app/api/mining", {
      remoteAddress,
      headers: { host: "evil.example:1848", cookie },
    });
    expect(rebound.statusCode).toBe(403);
  });

  it("without it, a cookie from another computer opens nothing", async () => {
    const t = await node();
    const r = await get(t, `/app/?code=${t.node.issueAppCode()}`);
    const cookie = cookieOf(r);
    const remote = await get(t, "/app/api/mining", {
      remoteAddress: "192.168.1.7",
      headers: { cookie },
    });
    expect(remote.statusCode).toBe(403);
    expect(JSON.parse(remote.body).code).toBe("APP_FORBIDDEN");
  });
});

describe("[api] one-time codes", () => {
  it("expire, work once, and at most 64 wait unused (the oldest is forgotten)", () => {
    let now = 1_000_000;
    const codes = new AppCodes(() => now);
    const short = codes.issue(1000);
    const long = codes.issue(null);
    now += 999;
    expect(codes.pending).toBe(2);
    now += 1;
    expect(codes.redeem(short.code)).toBe(false);
    expect(codes.redeem(long.code)).toBe(true);
    expect(codes.redeem(long.code)).toBe(false);
    const first = codes.issue(null);
    for (let i = 0; i < 64; i++) codes.issue(null);
    expect(codes.pending).toBe(64);
    expect(codes.redeem(first.code)).toBe(false);
    expect(short.expiresAt).toBe(1_001_000);
    expect(long.expiresAt).toBeNull();
  });
});

describe("[cli] weft app-url", () => {
  it("prints an address that opens the app once; refuses without a running node", async () => {
    const t = await node();
    await t.node.start();
    const port = new URL(t.node.origin).port;
    const r = await runWeft(["app-url", "--data-dir", t.dir, "--network", "test-singleton"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${port}/app/\\?code=[A-Za-z0-9_-]{32}\\n$`),
    );
    expect(r.stderr).toMatch(/opens the app once, until \d{4}-/);
    const url = r.stdout.trim();
    const first = await fetch(url, { redirect: "manual" });
    expect(first.status).toBe(303);
    expect(first.headers.get("set-cookie")).toBe(
      `weft-app-token-${port}=${t.node.appToken}; Path=/app/; HttpOnly; SameSite=Strict`,
    );
    const second = await fetch(url, { redirect: "manual" });
    expect(second.status).toBe(200);
    expect(await second.text()).toMatch(/no longer works/);
    expect(second.headers.get("set-cookie")).toBeNull();
    // The node's own starter prints one too.
    const own = await fetch(t.node.appCodeUrl(), { redirect: "manual" });
    expect(own.status).toBe(303);
    // --host names the computer for a node reached from others.
    const named = await requestAppUrl({
      dataDir: t.dir,
      network: "test-singleton",
      host: "weft.example.org",
    });
    expect(named.url).toMatch(new RegExp(`^http://weft\\.example\\.org:${port}/app/\\?code=`));

    await t.node.close();
    const gone = await runWeft(["app-url", "--data-dir", t.dir, "--network", "test-singleton"]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/no node of the test-singleton network runs on /);
    for (const args of [["--network", "nonet"], ["--x"], ["extra"], ["--data-dir"]]) {
      expect((await runWeft(["app-url", ...args])).code, args.join(" ")).toBe(2);
    }
    const help = await runWeft(["app-url", "--help"]);
    expect(help.stdout).toMatch(/^Usage: weft app-url/);
  });
});
