/**
 * An answer that leaves before its request's body was read closes the
 * connection, and the request after it on a keep-alive connection is never
 * left unread (issue 35, finding 4; src-node/api/unreadBody.ts). The mining
 * routes read GET bodies themselves: a body over their limit used to be
 * abandoned midway, which stopped the socket; the next request on that
 * connection was never answered. On real sockets, with the raw client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RawAnswer, RawConnection, within } from "../support/rawHttp.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

let t: TestNode;
let port: number;
let host: string;

beforeAll(async () => {
  t = await openTestNode({ mining: { apiEnabled: true } });
  await t.node.start();
  port = Number(new URL(t.node.origin).port);
  host = `host: 127.0.0.1:${port}\r\n`;
});
afterAll(async () => {
  await t?.cleanup();
});

const BIG = Buffer.alloc(2 * 1024 * 1024 + 99, 0x20);

function withLength(head: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${head}${host}content-length: ${body.length}\r\n\r\n`), body]);
}

function chunked(head: string, body: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`${head}${host}transfer-encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n`),
    body,
    Buffer.from("\r\n0\r\n\r\n"),
  ]);
}

function shown(a: RawAnswer | "silent"): string | number {
  return a === "silent" ? a : a.kind === "answer" ? a.status : a.kind;
}

/** Sends `first` then a health check on the same connection; both outcomes. */
async function thenHealth(
  first: Buffer,
): Promise<{ first: RawAnswer | "silent"; next: string | number }> {
  const conn = await RawConnection.open(port);
  try {
    const a = await within(conn.send(first), 5_000, "silent" as const);
    const b = await within(
      conn.send(Buffer.from(`GET /health-check HTTP/1.1\r\n${host}\r\n`)),
      5_000,
      "silent" as const,
    );
    return { first: a, next: shown(b) };
  } finally {
    conn.close();
  }
}

describe("[api] an answer before the body was read", () => {
  const cases: [string, () => Buffer][] = [
    [
      "GET /mining/work, 2 MiB with a length",
      () => withLength(`GET ${t.base}/mining/work HTTP/1.1\r\n`, BIG),
    ],
    [
      "GET /mining/work, 2 MiB chunked",
      () => chunked(`GET ${t.base}/mining/work HTTP/1.1\r\n`, BIG),
    ],
    [
      "GET /mining/updates, 2 MiB chunked",
      () => chunked(`GET ${t.base}/mining/updates HTTP/1.1\r\n`, BIG),
    ],
    [
      "GET /mining/updates, 300 KB with a length",
      () => withLength(`GET ${t.base}/mining/updates HTTP/1.1\r\n`, BIG.subarray(0, 300_000)),
    ],
    [
      "POST /send refused for its content type, 1 MB",
      () =>
        withLength(
          `POST ${t.base}/chain/0/pact/api/v1/send HTTP/1.1\r\ncontent-type: text/csv\r\n`,
          BIG.subarray(0, 1_000_000),
        ),
    ],
  ];
  for (const [name, request] of cases) {
    it(`${name}: answered with connection: close, and the connection does not hang`, async () => {
      const { first, next } = await thenHealth(request());
      expect(first !== "silent" && first.kind === "answer").toBe(true);
      if (first !== "silent" && first.kind === "answer") {
        expect(first.status).toBeGreaterThanOrEqual(400);
        expect(first.status).toBeLessThan(500);
        expect(first.headers.get("connection")).toBe("close");
        // The socket was not detached from the request: the client's address is known.
        expect(first.headers.get("x-peer-addr")).toMatch(/^127\.0\.0\.1:\d+$/);
      }
      expect(next).toBe("closed");
    });
  }

  it("a body read to its end keeps the connection open for the next request", async () => {
    const miner = Buffer.from(
      JSON.stringify({
        account: `k:${"ab".repeat(32)}`,
        predicate: "keys-all",
        "public-keys": ["ab".repeat(32)],
      }),
    );
    const { first, next } = await thenHealth(
      withLength(`GET ${t.base}/mining/work HTTP/1.1\r\n`, miner),
    );
    expect(shown(first)).toBe(200);
    expect(next).toBe(200);
  });
});
