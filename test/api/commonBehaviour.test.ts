/**
 * What every response shares: the three common headers (also on errors and
 * unknown routes), CORS on GET and HEAD only, the body size limit, and no
 * 500 for bad input.
 */
import { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiFixture, openForkedNode } from "../support/apiFixture.ts";
import { openTestNode } from "../support/testNode.ts";

let t: ApiFixture;
beforeAll(async () => {
  t = await openForkedNode();
});
afterAll(async () => {
  await t.cleanup();
});

type Req = { method: "GET" | "POST"; url: string; body?: unknown; status: number };

/** One request per route, and error cases; each with the status it must get. */
function requests(): Req[] {
  const b = t.base;
  const head = t.chain.main.cut.get(0)!.hash;
  const upper = { upper: [head] };
  return [
    { method: "GET", url: "/health-check", status: 200 },
    { method: "GET", url: `${b}/health-check`, status: 200 },
    { method: "GET", url: "/info", status: 200 },
    { method: "GET", url: `${b}/info`, status: 200 },
    { method: "GET", url: `${b}/cut`, status: 200 },
    { method: "GET", url: `${b}/chain/0/hash`, status: 200 },
    { method: "POST", url: `${b}/chain/0/hash/branch`, body: upper, status: 200 },
    { method: "GET", url: `${b}/chain/0/header`, status: 200 },
    { method: "GET", url: `${b}/chain/0/header/${head}`, status: 200 },
    { method: "POST", url: `${b}/chain/0/header/branch`, body: upper, status: 200 },
    { method: "GET", url: `${b}/chain/0/block`, status: 200 },
    { method: "POST", url: `${b}/chain/0/block/branch`, body: upper, status: 200 },
    { method: "GET", url: "/no/such/route", status: 404 },
    { method: "GET", url: "/ledger/0.0/mainnet01/cut", status: 404 },
    { method: "POST", url: `${b}/cut`, status: 404 },
    { method: "GET", url: `${b}/chain/77/hash`, status: 404 },
    { method: "GET", url: `${b}/chain/0/hash?limit=x`, status: 400 },
    { method: "POST", url: `${b}/chain/0/hash/branch`, body: { upper: "x" }, status: 400 },
  ];
}

describe("[api] common headers", () => {
  it("are on every response, errors and unknown routes included", async () => {
    for (const r of requests()) {
      const res = await t.request(r.method, r.url, r.body === undefined ? {} : { body: r.body });
      const name = `${r.method} ${r.url}`;
      expect(res.statusCode, name).toBe(r.status);
      expect(res.headers["x-peer-addr"], name).toMatch(/^.+:\d+$/);
      expect(res.headers["x-server-timestamp"], name).toMatch(/^\d+$/);
      expect(
        Math.abs(Number(res.headers["x-server-timestamp"]) - Date.now() / 1000),
        name,
      ).toBeLessThan(60);
      expect(res.headers["x-ledger-node-version"], name).toMatch(/^\d+\.\d+\.\d+/);
    }
  });

  it("give the node's clock as x-server-timestamp (the one blocks are mined and checked with)", async () => {
    const dayUs = 86_400 * 1_000_000;
    const n = await openTestNode({ now: () => Date.now() * 1000 + dayUs });
    try {
      for (const url of ["/health-check", `${n.base}/cut`, `${n.base}/nothing`]) {
        const r = await n.request("GET", url);
        const shown = Number(r.headers["x-server-timestamp"]);
        expect(Math.abs(shown - (Date.now() / 1000 + 86_400)), url).toBeLessThan(60);
      }
    } finally {
      await n.cleanup();
    }
  });

  it("are on 406, 413 and 415 responses", async () => {
    const head = t.chain.main.cut.get(0)!.hash;
    const cases = [
      await t.request("GET", `${t.base}/chain/0/block`, { headers: { accept: "image/png" } }),
      await t.request("POST", `${t.base}/chain/0/hash/branch`, {
        rawBody: JSON.stringify({ upper: [head], pad: "x".repeat(3 * 1024 * 1024) }),
        headers: { "content-type": "application/json" },
      }),
      await t.request("POST", `${t.base}/chain/0/hash/branch`, {
        rawBody: "<upper/>",
        headers: { "content-type": "application/xml" },
      }),
      // JSON sent as text/plain is refused as well, not read as a string.
      await t.request("POST", `${t.base}/chain/0/hash/branch`, {
        rawBody: JSON.stringify({ upper: [head] }),
        headers: { "content-type": "text/plain" },
      }),
    ];
    expect(cases.map((c) => c.statusCode)).toEqual([406, 413, 415, 415]);
    expect(cases[3]?.body).toBe(
      'content-type: "text/plain" is not supported; send application/json\n',
    );
    for (const c of cases) {
      expect(c.headers["x-ledger-node-version"]).toBeDefined();
      expect(c.headers["content-type"]).toMatch(/^text\/plain/);
    }
  });

  it("are on the 503 Fastify writes itself to a request that arrives while the server closes", async () => {
    const n = await openTestNode({ commands: { listenTimeout: 20 } });
    const sock = new Socket();
    try {
      const url = new URL(await n.node.start());
      let text = "";
      sock.on("data", (d: Buffer) => {
        text += d.toString("latin1");
      });
      await new Promise<void>((resolve) => sock.connect(Number(url.port), url.hostname, resolve));
      // A waiting /listen keeps the connection busy, so closing does not drop it.
      const body = JSON.stringify({ listen: "A".repeat(43) });
      sock.write(
        `POST ${url.pathname}/chain/0/pact/api/v1/listen HTTP/1.1\r\nHost: ${url.host}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      await new Promise((r) => setTimeout(r, 100));
      const closed = n.node.server.close();
      await new Promise((r) => setTimeout(r, 100));
      sock.write(`GET /health-check HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
      await new Promise((r) => setTimeout(r, 100));
      n.node.commands.close();
      await closed;
      const end = Date.now() + 5000;
      while ((text.match(/HTTP\/1\.1 /g)?.length ?? 0) < 2 && Date.now() < end)
        await new Promise((r) => setTimeout(r, 10));
      const answers = text.split(/(?=HTTP\/1\.1 )/);
      expect(answers).toHaveLength(2);
      for (const answer of answers) {
        expect(answer).toMatch(/^HTTP\/1\.1 503 /);
        expect(answer).toMatch(/^x-ledger-node-version: \d+\.\d+\.\d+/m);
        expect(answer).toMatch(/^x-server-timestamp: \d+\r$/m);
        expect(answer).toMatch(/^x-peer-addr: 127\.0\.0\.1:\d+\r$/m);
      }
    } finally {
      sock.destroy();
      await n.cleanup();
    }
  });

  it("are on the answers to requests the HTTP parser cannot read (400, 431)", async () => {
    const n = await openTestNode();
    try {
      const url = new URL(await n.node.start());
      const raw = (request: string) =>
        new Promise<string>((resolve, reject) => {
          const sock = new Socket();
          let text = "";
          sock.on("data", (d: Buffer) => {
            text += d.toString("latin1");
          });
          sock.on("close", () => resolve(text));
          sock.on("error", reject);
          sock.connect(Number(url.port), url.hostname, () => sock.write(request));
        });
      const garbage = await raw("NOT HTTP AT ALL\r\n\r\n");
      const huge = await raw(
        `GET /health-check HTTP/1.1\r\nHost: x\r\nx-big: ${"a".repeat(20_000)}\r\n\r\n`,
      );
      expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
      expect(huge).toMatch(/^HTTP\/1\.1 431 /);
      for (const answer of [garbage, huge]) {
        expect(answer).toMatch(/^x-ledger-node-version: \d+\.\d+\.\d+\r$/m);
        expect(answer).toMatch(/^x-server-timestamp: \d+\r$/m);
        expect(answer).toMatch(/^x-peer-addr: 127\.0\.0\.1:\d+\r$/m);
        expect(answer).toMatch(/^content-type: text\/plain; charset=utf-8\r$/m);
      }
      expect(garbage).toMatch(/\r\n\r\nrequest: not a readable HTTP request\n$/);
      expect(huge).toMatch(/\r\n\r\nrequest headers: larger than the server accepts\n$/);
      // The node keeps answering.
      expect((await n.request("GET", "/health-check")).statusCode).toBe(200);
    } finally {
      await n.cleanup();
    }
  });

  it("give unknown routes a text/plain 404 naming the route", async () => {
    const r = await t.request("GET", "/ledger/0.0/test-singleton/nothing?x=1");
    expect(r.statusCode).toBe(404);
    expect(r.headers["content-type"]).toMatch(/^text\/plain/);
    expect(r.body).toBe("no route for GET /ledger/0.0/test-singleton/nothing\n");
  });
});

describe("[api] CORS", () => {
  it("allows any origin to read with GET and HEAD", async () => {
    const get = await t.request("GET", `${t.base}/cut`, {
      headers: { origin: "https://explorer.example" },
    });
    expect(get.headers["access-control-allow-origin"]).toBe("*");
    const head = await t.request("HEAD", `${t.base}/cut`, {
      headers: { origin: "https://explorer.example" },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers["access-control-allow-origin"]).toBe("*");
  });

  it("answers preflights for GET only, and leaves POST responses without CORS headers", async () => {
    const ok = await t.request("OPTIONS", `${t.base}/chain/0/header`, {
      headers: {
        origin: "https://explorer.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "accept",
      },
    });
    expect(ok.statusCode).toBe(204);
    expect(ok.headers["access-control-allow-methods"]).toBe("GET, HEAD");
    const post = await t.request("OPTIONS", `${t.base}/chain/0/hash/branch`, {
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(post.statusCode).toBe(403);
    expect(post.headers["access-control-allow-origin"]).toBeUndefined();
    const r = await t.request("POST", `${t.base}/chain/0/hash/branch`, {
      body: {},
      headers: { origin: "https://evil.example" },
    });
    expect(r.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("[api] robustness", () => {
  it("never answers 500 to bad input", async () => {
    const b = t.base;
    const nasty = [
      `${b}/chain/%00/hash`,
      `${b}/chain/0/header/%E0%A4%A`,
      `${b}/chain/0/hash?next=inclusive:%FF`,
      `${b}/chain/0/hash?limit=1e3`,
      `${b}/chain/0/hash?limit[]=1`,
      `${b}/chain/0/hash?maxheight=9007199254740993`,
      `${b}/chain/0/header?next=exclusive:${"_".repeat(43)}`,
      `${b}/chain/9999999999999999999999/hash`,
      `${b}/chain/0/header/${"a".repeat(500)}`,
    ];
    for (const url of nasty) {
      const r = await t.request("GET", url);
      expect(r.statusCode, url).toBeLessThan(500);
    }
    for (const body of [
      '{"upper": null}',
      "null",
      "[]",
      '{"upper": [null]}',
      '{"lower": {}}',
      "1",
    ]) {
      const r = await t.request("POST", `${b}/chain/0/header/branch`, {
        rawBody: body,
        headers: { "content-type": "application/json" },
      });
      expect(r.statusCode, body).toBeLessThan(500);
    }
  });

  it("answers 503 when the databases are closed under it, not 500", async () => {
    const n = await openTestNode();
    try {
      n.node.blocks.close();
      const r = await n.request("GET", `${n.base}/chain/0/hash`);
      expect(r.statusCode).toBe(503);
    } finally {
      await n.cleanup();
    }
  });
});
