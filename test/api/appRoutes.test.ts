/**
 * The node's own UI under /app/ (docs/desktop.md §3.1, §3.3): the built files
 * with their cache headers, the /app redirect, config.json, the security
 * headers on everything under /app/ (the CSP equal to the desktop shell's),
 * no CORS there, the 503 hint while the UI is not built (and the UI served as
 * soon as it is), and the loopback rules of /app/api/mining on real sockets.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { rendererCspHeader } from "../../electron/security/csp.ts";
import { APP_CSP_HEADER } from "../../src-node/api/appCsp.ts";
import { defaultRendererDir } from "../../src-node/api/rendererDir.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

const INDEX =
  '<!doctype html><html><head><script type="module" src="/app/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>\n';
const SCRIPT = "console.log('weft');\n";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A built UI in a temporary folder: index.html, a hashed asset and an icon. */
function fakeBuild(): string {
  const dir = tempDir("weft-ui-");
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), INDEX);
  writeFileSync(join(dir, "assets", "index-abc123.js"), SCRIPT);
  writeFileSync(join(dir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  return dir;
}

async function node(rendererDir: string, options: { port?: number } = {}): Promise<TestNode> {
  const t = await openTestNode({ rendererDir, ...options });
  cleanups.push(() => t.cleanup());
  return t;
}

/** A raw request on a real socket (no URL normalisation by the client). */
function raw(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        text += c;
      });
      res.on("end", () => done({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", fail);
    req.end(body);
  });
}

function expectAppHeaders(headers: Record<string, unknown>, name: string): void {
  expect(headers["content-security-policy"], name).toBe(APP_CSP_HEADER);
  expect(headers["x-content-type-options"], name).toBe("nosniff");
  expect(headers["access-control-allow-origin"], name).toBeUndefined();
}

describe("[api] /app/ content security policy", () => {
  it("is the desktop shell's rendererCspHeader, written out twice (src-node never imports electron/)", () => {
    expect(APP_CSP_HEADER).toBe(rendererCspHeader);
  });

  it("finds the UI at <repo>/dist/renderer by default", () => {
    expect(resolve(defaultRendererDir())).toBe(
      resolve(import.meta.dirname, "..", "..", "dist", "renderer"),
    );
  });
});

describe("[api] the built UI under /app/", () => {
  it("redirects /app to /app/, keeping the query", async () => {
    const t = await node(fakeBuild());
    const r = await t.request("GET", "/app");
    expect(r.statusCode).toBe(301);
    expect(r.headers.location).toBe("/app/");
    expect((await t.request("GET", "/app?x=1")).headers.location).toBe("/app/?x=1");
  });

  it("serves index.html at /app/ and the hashed assets for a year", async () => {
    const dir = fakeBuild();
    const t = await node(dir);
    // The page is the app token's holder's (test/api/appCodes.test.ts): here, the header.
    const withToken = { headers: { "x-weft-app-token": t.node.appToken } };
    const index = await t.request("GET", "/app/", withToken);
    expect(index.statusCode).toBe(200);
    expect(index.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(index.headers["cache-control"]).toBe("no-cache");
    expect(index.body).toBe(INDEX);
    expectAppHeaders(index.headers, "index");
    expect((await t.request("GET", "/app/index.html", withToken)).body).toBe(INDEX);

    const js = await t.request("GET", "/app/assets/index-abc123.js");
    expect(js.statusCode).toBe(200);
    expect(js.headers["content-type"]).toMatch(/^(text|application)\/javascript/);
    expect(js.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(js.body).toBe(SCRIPT);
    expectAppHeaders(js.headers, "asset");

    const icon = await t.request("GET", "/app/favicon.svg");
    expect(icon.statusCode).toBe(200);
    expect(icon.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(icon.headers["cache-control"]).toBe("no-cache");

    const head = await t.request("HEAD", "/app/", withToken);
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe("");

    // Still the common headers of every response.
    expect(index.headers["x-ledger-node-version"]).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("answers 404 for files it does not have, with the app's headers", async () => {
    const t = await node(fakeBuild());
    for (const path of ["/app/assets/missing.js", "/app/nothing/here", "/app/api/nothing"]) {
      const r = await t.request("GET", path);
      expect(r.statusCode, path).toBe(404);
      expect(r.headers["content-type"], path).toBe("text/plain; charset=utf-8");
      expectAppHeaders(r.headers, path);
    }
  });

  it("never serves a file outside the UI's folder", async () => {
    const parent = tempDir("weft-ui-parent-");
    cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
    const dir = join(parent, "renderer");
    mkdirSync(dir);
    writeFileSync(join(dir, "index.html"), INDEX);
    writeFileSync(join(parent, "secret.txt"), "SECRET-CONTENT");
    writeFileSync(join(dir, ".hidden"), "HIDDEN-CONTENT");
    const t = await node(dir, { port: 0 });
    await t.node.start();
    const port = Number(new URL(t.node.origin).port);
    for (const path of [
      "/app/../secret.txt",
      "/app/..%2fsecret.txt",
      "/app/%2e%2e/secret.txt",
      "/app/assets/..%2f..%2fsecret.txt",
      "/app/.hidden",
      "/app//etc/passwd",
    ]) {
      const r = await raw(port, "GET", path);
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
      expect(r.body, path).not.toContain("SECRET-CONTENT");
      expect(r.body, path).not.toContain("HIDDEN-CONTENT");
    }
  });

  it("answers 503 with the build hint while the UI is not built, then serves it once built", async () => {
    const parent = tempDir("weft-ui-later-");
    cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
    const dir = join(parent, "renderer");
    const t = await node(dir);
    for (const path of ["/app/", "/app/index.html", "/app/assets/index-abc123.js"]) {
      const r = await t.request("GET", path);
      expect(r.statusCode, path).toBe(503);
      expect(r.headers["content-type"], path).toBe("text/plain; charset=utf-8");
      expect(r.body, path).toContain("npm run build:renderer");
      expectAppHeaders(r.headers, path);
    }
    // The rest of the node works without the UI.
    expect((await t.request("GET", "/app/config.json")).statusCode).toBe(200);
    expect((await t.request("GET", `${t.base}/cut`)).statusCode).toBe(200);
    const mining = await t.request("GET", "/app/api/mining", {
      headers: { host: "127.0.0.1:1848", "x-weft-app-token": t.node.appToken },
    });
    expect(mining.statusCode).toBe(200);

    mkdirSync(join(dir, "assets"), { recursive: true });
    writeFileSync(join(dir, "index.html"), INDEX);
    writeFileSync(join(dir, "assets", "index-abc123.js"), SCRIPT);
    const built = await t.request("GET", "/app/", {
      headers: { "x-weft-app-token": t.node.appToken },
    });
    expect(built.statusCode).toBe(200);
    expect(built.body).toBe(INDEX);
    expect((await t.request("GET", "/app/assets/index-abc123.js")).body).toBe(SCRIPT);
  });

  it("still starts, and answers 503, when the UI's path is a file", async () => {
    const parent = tempDir("weft-ui-file-");
    cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
    const file = join(parent, "renderer");
    writeFileSync(file, "not a folder");
    const t = await node(file);
    const r = await t.request("GET", "/app/");
    expect(r.statusCode).toBe(503);
    expect(r.body).toContain("npm run build:renderer");
    expect((await t.request("GET", "/app/config.json")).statusCode).toBe(200);
  });
});

describe("[api] GET /app/config.json", () => {
  it("names the network, the API version and the node's base URL; never cached", async () => {
    const t = await node(fakeBuild(), { port: 0 });
    await t.node.start();
    const r = await t.request("GET", "/app/config.json");
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(r.headers["cache-control"]).toBe("no-store");
    expectAppHeaders(r.headers, "config.json");
    expect(JSON.parse(r.body)).toEqual({
      networkId: "test-singleton",
      apiVersion: "0.0",
      baseUrl: t.node.baseUrl,
    });
    expect(t.node.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ledger\/0\.0\/test-singleton$/);
  });

  it("uses the request's Host before the node listens (inject)", async () => {
    const t = await node(fakeBuild());
    const r = await t.request("GET", "/app/config.json", { headers: { host: "localhost:4321" } });
    expect(JSON.parse(r.body).baseUrl).toBe("http://localhost:4321/ledger/0.0/test-singleton");
    // A Host that names no host at all is refused before any route (browserGuard.ts).
    const odd = await t.request("GET", "/app/config.json", { headers: { host: "a b/c" } });
    expect(odd.statusCode).toBe(403);
  });
});

describe("[api] /app/ routes on a real socket", () => {
  it("answer each request once: nothing is logged as failed", async () => {
    const logged: string[] = [];
    const log = (level: string) => (message: string, fields?: Record<string, unknown>) =>
      logged.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
    const t = await openTestNode({
      rendererDir: fakeBuild(),
      port: 0,
      logger: { info: () => {}, warn: log("warn"), error: log("error") },
    });
    cleanups.push(() => t.cleanup());
    await t.node.start();
    const port = Number(new URL(t.node.origin).port);
    const host = `127.0.0.1:${port}`;
    const token = { "x-weft-app-token": t.node.appToken };
    const json = { host, ...token, "content-type": "application/json" };
    const answers = [
      await raw(port, "GET", "/app", { host }),
      await raw(port, "GET", "/app/", { host, ...token }),
      await raw(port, "GET", "/app/", { host }),
      await raw(port, "GET", `/app/?code=${t.node.issueAppCode()}`, { host }),
      await raw(port, "GET", "/app/assets/index-abc123.js", { host }),
      await raw(port, "GET", "/app/missing", { host }),
      await raw(port, "GET", "/app/config.json", { host }),
      await raw(port, "GET", "/app/api/mining", { host, ...token }),
      await raw(port, "POST", "/app/api/mining", json, '{"threads":1}'),
      await raw(port, "POST", "/app/api/mining", json, '{"threads":0}'),
      // test-singleton: no reward account needed (the blocks pay sender09, docs/mining.md).
      await raw(port, "POST", "/app/api/mining", json, '{"enabled":true}'),
      await raw(port, "POST", "/app/api/mining", json, '{"enabled":false}'),
      await raw(port, "OPTIONS", "/app/api/mining", { host }),
      await raw(port, "OPTIONS", "/app/config.json", { host }),
    ];
    expect(answers.map((a) => a.status)).toEqual([
      301, 200, 200, 303, 200, 404, 200, 200, 200, 400, 200, 200, 403, 403,
    ]);
    await new Promise((r) => setTimeout(r, 50));
    expect(logged).toEqual([]);
  });
});

describe("[api] /app/ is same-origin only", () => {
  it("sends no CORS headers and refuses preflights under /app/ (the ledger routes keep theirs)", async () => {
    const t = await node(fakeBuild());
    for (const path of ["/app/", "/app/config.json", "/app/assets/index-abc123.js"]) {
      const r = await t.request("GET", path, {
        headers: { origin: "http://elsewhere.example", "x-weft-app-token": t.node.appToken },
      });
      expect(r.statusCode, path).toBe(200);
      expect(r.headers["access-control-allow-origin"], path).toBeUndefined();
      const pre = await t.request("OPTIONS", path, {
        headers: { origin: "http://elsewhere.example", "access-control-request-method": "GET" },
      });
      expect(pre.statusCode, path).toBe(403);
      expect(pre.headers["access-control-allow-origin"], path).toBeUndefined();
      expect(pre.headers["access-control-allow-methods"], path).toBeUndefined();
    }
    const ledger = await t.request("GET", `${t.base}/cut`);
    expect(ledger.headers["access-control-allow-origin"]).toBe("*");
    expect(ledger.headers["content-security-policy"]).toBeUndefined();
  });
});

describe("[api] /app/api/mining protection (docs/desktop.md §3.3)", () => {
  const appError = (r: { status: number; headers: Record<string, unknown>; body: string }) => {
    expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(r.headers["access-control-allow-origin"]).toBeUndefined();
    return JSON.parse(r.body) as { code: string; message: string };
  };

  it("refuses preflights and foreign origins with 403 {code, message} and no CORS headers", async () => {
    const t = await node(fakeBuild(), { port: 0 });
    await t.node.start();
    const port = Number(new URL(t.node.origin).port);
    const host = `127.0.0.1:${port}`;
    for (const method of ["GET", "POST"]) {
      const pre = await raw(port, "OPTIONS", "/app/api/mining", {
        host,
        origin: "http://evil.example",
        "access-control-request-method": method,
        "access-control-request-headers": "content-type",
      });
      expect(pre.status, method).toBe(403);
      expect(appError(pre).code).toBe("APP_FORBIDDEN");
      expect(pre.headers["access-control-allow-methods"]).toBeUndefined();
    }
    const foreign = await raw(port, "GET", "/app/api/mining", {
      host,
      origin: "http://evil.example",
    });
    expect(foreign.status).toBe(403);
    expect(appError(foreign).code).toBe("APP_FORBIDDEN");
    const token = { "x-weft-app-token": t.node.appToken };
    const simplePost = await raw(
      port,
      "POST",
      "/app/api/mining",
      { host, ...token, origin: `http://${host}`, "content-type": "text/plain" },
      '{"enabled":true}',
    );
    expect(simplePost.status).toBe(415);
    expect(appError(simplePost).code).toBe("APP_NOT_JSON");
    expect(t.node.miner.status().enabled).toBe(false);

    const own = await raw(port, "GET", "/app/api/mining", {
      host,
      ...token,
      origin: `http://${host}`,
    });
    expect(own.status).toBe(200);
    expect(own.headers["access-control-allow-origin"]).toBeUndefined();
    expect(own.headers["content-security-policy"]).toBe(APP_CSP_HEADER);
    const upper = await raw(port, "GET", "/app/api/mining", {
      ...token,
      host: `LOCALHOST:${port}`,
      origin: `http://localhost:${port}`,
    });
    expect(upper.status).toBe(200);
  });

  it("needs the port in Host (a Host without one means port 80)", async () => {
    const t = await node(fakeBuild(), { port: 0 });
    await t.node.start();
    const port = Number(new URL(t.node.origin).port);
    const noPort = await raw(port, "GET", "/app/api/mining", { host: "127.0.0.1" });
    expect(noPort.status).toBe(403);
    expect(appError(noPort).code).toBe("APP_FORBIDDEN");
    expect(
      (
        await raw(port, "GET", "/app/api/mining", {
          host: `[::1]:${port}`,
          "x-weft-app-token": t.node.appToken,
        })
      ).status,
    ).toBe(200);
  });

  it("accepts exactly the peers 127.0.0.1, ::1 and ::ffff:127.0.0.1", async () => {
    const t = await node(fakeBuild());
    const from = (remoteAddress: string) =>
      t.node.server.inject({
        method: "GET",
        url: "/app/api/mining",
        headers: { host: "127.0.0.1:1848", "x-weft-app-token": t.node.appToken },
        remoteAddress,
      });
    for (const ok of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) {
      expect((await from(ok)).statusCode, ok).toBe(200);
    }
    for (const bad of [
      "127.0.0.2",
      "::ffff:127.0.0.2",
      "0.0.0.0",
      "192.168.1.5",
      "::2",
      "fe80::1",
    ]) {
      const r = await from(bad);
      expect(r.statusCode, bad).toBe(403);
      expect(JSON.parse(r.body).code, bad).toBe("APP_FORBIDDEN");
    }
  });
});
