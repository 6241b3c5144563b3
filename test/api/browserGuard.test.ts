/**
 * The server-wide browser guard (docs/api.md "Browsers"; issue 15 findings 3
 * and 4): the Host must name the node (loopback names with its port, the
 * configured host, IP literals with its port, names from `allowed-hosts`),
 * else 403 API_HOST_FORBIDDEN on every route, unknown ones included; the
 * contract and read routes keep CORS but their POSTs need application/json;
 * the mining and backup routes carry no CORS and refuse a present Origin
 * that is not the node's own; `/mining/solved` needs
 * application/octet-stream.
 */
import { readdirSync, rmSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

const open: TestNode[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function node(options: Parameters<typeof openTestNode>[0] = {}): Promise<TestNode> {
  const t = await openTestNode(options);
  open.push(t);
  return t;
}

async function backupNode(): Promise<{ t: TestNode; backups: string }> {
  const backups = tempDir("weft-guard-backups-");
  dirs.push(backups);
  const t = await node({ backup: { apiEnabled: true, directory: backups } });
  return { t, backups };
}

/** A raw request on a real socket: the Host header is exactly what the test gives. */
function raw(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((done, fail) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, method, path, headers, setHost: false },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c;
        });
        res.on("end", () =>
          done({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        );
      },
    );
    req.on("error", fail);
    req.end(body);
  });
}

const EVIL = "http://evil.example";

describe("[api] finding 3: a web page cannot start backups or submit solutions", () => {
  it("refuses make-backup from another origin, whatever the body (text/plain, form, empty, null origin)", async () => {
    const { t, backups } = await backupNode();
    const url = `${t.base}/make-backup`;
    const tries: { headers: Record<string, string>; rawBody?: string }[] = [
      { headers: { origin: EVIL, "content-type": "text/plain" }, rawBody: "x" },
      {
        headers: { origin: EVIL, "content-type": "application/x-www-form-urlencoded" },
        rawBody: "a=1",
      },
      { headers: { origin: EVIL } },
      { headers: { origin: "null" } },
      { headers: { origin: "http://localhost:1849" } },
    ];
    for (const o of tries) {
      const r = await t.request("POST", url, o);
      expect(r.statusCode, JSON.stringify(o)).toBe(403);
      expect(r.body, JSON.stringify(o)).toContain("Origin");
      expect(r.headers["access-control-allow-origin"]).toBeUndefined();
    }
    expect(readdirSync(backups)).toEqual([]);
  });

  it("still makes a backup for curl (no Origin) and for the node's own origin", async () => {
    const { t, backups } = await backupNode();
    const plain = await t.request("POST", `${t.base}/make-backup`);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers["access-control-allow-origin"]).toBeUndefined();
    await t.node.backup?.settled();
    const own = await t.request("POST", `${t.base}/make-backup`, {
      headers: { host: "127.0.0.1:1848", origin: "http://127.0.0.1:1848" },
    });
    expect(own.statusCode, own.body).toBe(200);
    await t.node.backup?.settled();
    expect(readdirSync(backups).length).toBeGreaterThan(0);
    const check = await t.request("GET", `${t.base}/check-backup/${plain.body}`, {
      headers: { origin: "http://127.0.0.1" },
    });
    expect(check.statusCode).toBe(403);
    const checkCurl = await t.request("GET", `${t.base}/check-backup/${plain.body}`);
    expect(checkCurl.statusCode).toBe(200);
    expect(checkCurl.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("refuses /mining/solved from another origin, and without application/octet-stream", async () => {
    const t = await node({ mining: { apiEnabled: true } });
    const url = `${t.base}/mining/solved`;
    const bytes = Buffer.alloc(286);
    const foreign = await t.request("POST", url, {
      headers: { origin: EVIL, "content-type": "application/octet-stream" },
      rawBody: bytes,
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]) {
      const r = await t.request("POST", url, {
        headers: { "content-type": type },
        rawBody: bytes,
      });
      expect(r.statusCode, type).toBe(415);
      expect(r.body, type).toContain("application/octet-stream");
    }
    const none = await t.request("POST", url, { rawBody: bytes });
    expect(none.statusCode).toBe(415);
    // The right type gets as far as looking the work up (all zero: not work this node gave).
    const right = await t.request("POST", url, {
      headers: { "content-type": "application/octet-stream" },
      rawBody: bytes,
    });
    expect(right.statusCode).toBe(404);
  });

  it("keeps CORS off the mining routes and refuses their GETs from another origin", async () => {
    const t = await node({ mining: { apiEnabled: true } });
    const r = await t.request("GET", `${t.base}/mining/work`, { headers: { origin: EVIL } });
    expect(r.statusCode).toBe(403);
    expect(r.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("[api] finding 4: the Host must name the node (DNS rebinding)", () => {
  const chainPath = (t: TestNode, what: string) => `${t.base}/chain/0/pact/api/v1/${what}`;

  it("answers 403 API_HOST_FORBIDDEN to /send, /local, /poll and every other route with a foreign Host", async () => {
    const t = await node({ mining: { apiEnabled: true } });
    const host = { host: "evil.example:1848" };
    const probes: [string, string, unknown?][] = [
      ["POST", chainPath(t, "send"), { cmds: [] }],
      ["POST", chainPath(t, "local"), {}],
      ["POST", chainPath(t, "poll"), { requestKeys: ["a".repeat(43)] }],
      ["GET", `${t.base}/cut`],
      ["GET", "/health-check"],
      ["GET", `${t.base}/info`],
      ["GET", "/app/config.json"],
      ["GET", "/app/"],
      ["GET", `${t.base}/mining/work`],
      ["GET", "/no/such/route"],
      ["OPTIONS", `${t.base}/cut`],
    ];
    for (const [method, url, body] of probes) {
      const r = await t.request(method as "GET", url, {
        headers: host,
        ...(body === undefined ? {} : { body }),
      });
      expect(r.statusCode, `${method} ${url}`).toBe(403);
      expect(r.body, `${method} ${url}`).toContain("evil.example");
    }
  });

  it("on a real socket: loopback names need the node's port; IP literals and allowed names pass", async () => {
    const t = await node({ port: 0, allowedHosts: ["weft.example.org"] });
    await t.node.start();
    const port = Number(new URL(t.node.origin).port);
    const status = async (host: string | undefined) =>
      (await raw(port, "GET", "/health-check", host === undefined ? {} : { host })).status;
    expect(await status(`127.0.0.1:${port}`)).toBe(200);
    expect(await status(`LOCALHOST:${port}`)).toBe(200);
    expect(await status(`[::1]:${port}`)).toBe(200);
    expect(await status(`192.168.1.20:${port}`)).toBe(200);
    expect(await status("weft.example.org")).toBe(200);
    expect(await status(`weft.example.org:${port}`)).toBe(200);
    expect(await status(`127.0.0.1:${port === 1 ? 2 : port - 1}`)).toBe(403);
    expect(await status("127.0.0.1")).toBe(403);
    expect(await status(`localhost.evil.example:${port}`)).toBe(403);
    expect(await status(`evil.example:${port}`)).toBe(403);
    expect(await status(`weft.example.org.evil.example:${port}`)).toBe(403);
    // Node's HTTP parser already refuses an HTTP/1.1 request without Host.
    expect(await status(undefined)).toBe(400);
  });

  it("checks the Host of every request on a kept-alive connection, not only the first", async () => {
    const t = await node({ port: 0 });
    await t.node.start();
    const port = Number(new URL(t.node.origin).port);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ports: number[] = [];
    const status = (host: string) =>
      new Promise<number>((done, fail) => {
        const req = httpRequest(
          {
            host: "127.0.0.1",
            port,
            path: "/health-check",
            headers: { host },
            agent,
            setHost: false,
          },
          (res) => {
            ports.push(res.socket.localPort ?? 0);
            res.resume();
            res.on("end", () => done(res.statusCode ?? 0));
          },
        );
        req.on("error", fail);
        req.end();
      });
    try {
      expect(await status(`127.0.0.1:${port}`)).toBe(200);
      expect(await status(`127.0.0.1:${port}`)).toBe(200);
      expect(await status(`evil.example:${port}`)).toBe(403);
      expect(await status(`localhost:${port}`)).toBe(200);
      expect(await status("127.0.0.1")).toBe(403);
      // One connection throughout (the 403s keep it open).
      expect(new Set(ports).size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it("accepts the configured host name", async () => {
    const t = await node({ host: "localhost", port: 0 });
    await t.node.start();
    const port = Number(new URL(t.node.origin).port);
    expect((await raw(port, "GET", "/health-check", { host: `localhost:${port}` })).status).toBe(
      200,
    );
  });
});

describe("[api] the contract and read routes keep CORS, and their POSTs need JSON", () => {
  it("answers GETs from any origin with access-control-allow-origin: *", async () => {
    const t = await node();
    const r = await t.request("GET", `${t.base}/cut`, { headers: { origin: EVIL } });
    expect(r.statusCode).toBe(200);
    expect(r.headers["access-control-allow-origin"]).toBe("*");
  });

  it("refuses simple content types on the command POSTs with 415", async () => {
    const t = await node();
    for (const what of ["send", "local", "poll", "listen"]) {
      for (const type of [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
      ]) {
        const r = await t.request("POST", `${t.base}/chain/0/pact/api/v1/${what}`, {
          headers: { origin: EVIL, "content-type": type },
          rawBody: '{"cmds":[]}',
        });
        expect(r.statusCode, `${what} ${type}`).toBe(415);
        expect(r.body, `${what} ${type}`).toContain("application/json");
      }
    }
  });
});

describe("[config] allowed-hosts", () => {
  it("refuses a name with a scheme, port or path", async () => {
    const d = tempDir("weft-guard-cfg-");
    dirs.push(d);
    for (const bad of ["http://x.example", "x.example:80", "x.example/a", ""]) {
      await expect(openTestNode({ dir: d, allowedHosts: [bad] }), bad).rejects.toThrow(
        /allowed-hosts/,
      );
    }
  });

  it("reads allowed-hosts from the file and --allowed-host from the flags", async () => {
    const { parseConfigText } = await import("../../src-node/config/loadConfigFile.ts");
    const { parseNodeFlags } = await import("../../src-node/config/parseNodeFlags.ts");
    const { resolveNodeOptions } = await import("../../src-node/config/nodeOptions.ts");
    const file = parseConfigText("allowed-hosts: [a.example, B.example]\n", join(d0(), "x.yaml"));
    expect(resolveNodeOptions(file).allowedHosts).toEqual(["a.example", "b.example"]);
    const flags = parseNodeFlags(["--allowed-host", "c.example,d.example"]);
    expect(resolveNodeOptions(flags.options).allowedHosts).toEqual(["c.example", "d.example"]);
    expect(resolveNodeOptions({}).allowedHosts).toEqual([]);
  });
});

function d0(): string {
  const d = tempDir("weft-guard-file-");
  dirs.push(d);
  return d;
}
