/**
 * TLS between peers (src-node/p2p/tls/, docs/p2p.md "TLS"): the node's
 * self-signed certificate (created once, 0600, its fingerprint stable across
 * starts); `pinnedFetch` talks to a TLS server only when its certificate has
 * the fingerprint the peer is named by (no request reaches another one);
 * `FINGERPRINT@HOST:PORT` peer addresses and published origins.
 */
import { statSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePeerAddress, peerKey, peerOrigin } from "../../src-node/p2p/peerAddress.ts";
import { parsePeerCut, publishedCut } from "../../src-node/p2p/peerCut.ts";
import {
  loadOrCreatePeerCertificate,
  type PeerCertificate,
} from "../../src-node/p2p/tls/peerCertificate.ts";
import { pinnedFetch } from "../../src-node/p2p/tls/pinnedFetch.ts";
import { tempDir } from "../support/testNode.ts";

let cert: PeerCertificate;
let server: Server;
let url: string;
const received: string[] = [];

beforeAll(async () => {
  const dir = join(tempDir(), "p2p-tls");
  cert = await loadOrCreatePeerCertificate(dir);
  if (process.platform !== "win32") {
    expect(statSync(join(dir, "key.pem")).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  }
  // Read back, the same identity.
  expect((await loadOrCreatePeerCertificate(dir)).fingerprint).toBe(cert.fingerprint);
  server = createServer({ cert: cert.certificatePem, key: cert.keyPem }, (req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      received.push(`${req.method} ${req.url} ${body}`);
      if (req.url === "/empty") {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ method: req.method, body }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe("[p2p] TLS between peers", () => {
  it("names a node by its certificate's SHA-256 fingerprint", () => {
    expect(cert.fingerprint).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cert.certificatePem).toContain("BEGIN CERTIFICATE");
  });

  it("talks to the peer whose certificate has the fingerprint, and to no other", async () => {
    const ok = await pinnedFetch(cert.fingerprint)(`${url}/cut?x=1`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ method: "PUT", body: '{"a":1}' });
    const empty = await pinnedFetch(cert.fingerprint)(`${url}/empty`, { method: "GET" });
    expect(empty.status).toBe(204);
    const before = received.length;
    const other = `${"A".repeat(42)}B`;
    await expect(
      pinnedFetch(other)(`${url}/secret`, { method: "POST", body: "the plain command" }),
    ).rejects.toThrow(/fingerprint .* not A{42}B/);
    // Nothing was sent to a server with another certificate.
    expect(received.length).toBe(before);
  });

  it("reads FINGERPRINT@HOST:PORT addresses and publishes its fingerprint as the cut's origin id", () => {
    const a = parsePeerAddress(`${cert.fingerprint}@127.0.0.1:1848`, "peer");
    expect(a).toEqual({ hostname: "127.0.0.1", port: 1848, id: cert.fingerprint });
    expect(peerKey(a)).toBe(`${cert.fingerprint}@127.0.0.1:1848`);
    expect(peerOrigin(a)).toBe("https://127.0.0.1:1848");
    expect(peerOrigin(parsePeerAddress("127.0.0.1:1848", "peer"))).toBe("http://127.0.0.1:1848");
    expect(() => parsePeerAddress("short@127.0.0.1:1848", "peer")).toThrow(/FINGERPRINT@HOST:PORT/);
    const cut = {
      hashes: { "0": { height: 0, hash: "A".repeat(43) } },
      origin: null,
      weight: "A".repeat(43),
      height: 0,
      instance: "test-singleton",
      id: "A".repeat(43),
    };
    const published = publishedCut(cut, a) as { origin: unknown };
    expect(published.origin).toEqual({
      id: cert.fingerprint,
      address: { hostname: "127.0.0.1", port: 1848 },
    });
    expect(parsePeerCut(published, [0]).origin).toEqual(a);
  });
});
