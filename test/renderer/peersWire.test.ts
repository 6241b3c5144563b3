/**
 * The peers panel's wire contract: the renderer's contract entries of
 * `/app/api/peers` (renderer/src/api/appEndpoints.ts), called over its client,
 * against a real node (createNode, not listening; requests
 * through `inject()` as the app's own page sends them): the list and sync
 * status decode, a peer is added and removed, a bad address keeps the node's
 * code and message.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEndpoints } from "../../renderer/src/api/appEndpoints.ts";
import { ClientErrorCode } from "../../renderer/src/api/clientError.ts";
import { callEndpoint } from "../../renderer/src/api/endpoint.ts";
import {
  createNodeClient,
  type FetchLike,
  loadAppConfig,
  type NodeClient,
} from "../../renderer/src/api/nodeClient.ts";
import { createNode, type WeftNode } from "../../src-node/node.ts";

const HOST = "127.0.0.1:1848";
const ORIGIN = `http://${HOST}`;

let dataDir: string;
let node: WeftNode;
let cookies = "";

const injectFetch: FetchLike = async (url, init) => {
  const u = new URL(url);
  const res = await node.server.inject({
    method: init.method,
    url: `${u.pathname}${u.search}`,
    headers: {
      host: HOST,
      ...(init.headers ?? {}),
      ...(cookies === "" ? {} : { cookie: cookies }),
      ...(init.method === "GET" ? {} : { origin: ORIGIN }),
    },
    ...(init.body === undefined ? {} : { payload: init.body }),
  });
  return {
    ok: res.statusCode >= 200 && res.statusCode < 300,
    status: res.statusCode,
    headers: {
      get: (name: string) => {
        const v = res.headers[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(", ") : String(v);
      },
    },
    text: () => Promise.resolve(res.body),
  };
};

async function client(): Promise<NodeClient> {
  const config = await loadAppConfig(injectFetch, `${ORIGIN}/app/config.json`);
  if (!config.ok) throw new Error(JSON.stringify(config.error));
  return createNodeClient({ origin: ORIGIN, basePath: config.value.basePath, fetch: injectFetch });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "weft-peers-wire-"));
  const rendererDir = join(dataDir, "renderer");
  mkdirSync(join(rendererDir, "assets"), { recursive: true });
  writeFileSync(join(rendererDir, "index.html"), "<!doctype html><title>Weft</title>");
  node = await createNode({
    network: "test-singleton",
    dataDir: join(dataDir, "data"),
    listen: false,
    rendererDir,
    p2p: { peers: ["127.0.0.1:9"] },
  });
  // Open the app's address as the launcher prints it (a one-time code), and keep the cookie.
  const page = await node.server.inject({
    method: "GET",
    url: `/app/?code=${node.issueAppCode()}`,
    headers: { host: HOST },
  });
  expect(page.statusCode).toBe(303);
  const set = page.headers["set-cookie"];
  cookies = (Array.isArray(set) ? set : set === undefined ? [] : [set])
    .map((c) => c.split(";")[0])
    .join("; ");
});

afterAll(async () => {
  await node?.close();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

describe("[renderer] peers wire contract with the real node", () => {
  it("lists, adds and removes peers; keeps the node's refusal of a bad address", async () => {
    const c = await client();
    const first = await callEndpoint(c, sharedEndpoints.peers, {});
    if (!first.ok) throw new Error(JSON.stringify(first.error));
    expect(first.value.peers.map((p) => [p.address, p.source, p.network])).toEqual([
      ["127.0.0.1:9", "configured", "unchecked"],
    ]);
    expect(first.value.sync).toMatchObject({ state: "alone", cutHeight: 0, blocksLeft: 0 });
    expect(
      (await callEndpoint(c, sharedEndpoints.addPeer, {}, { address: "localhost:1849" })).ok,
    ).toBe(true);
    const added = await callEndpoint(c, sharedEndpoints.peers, {});
    if (!added.ok) throw new Error(JSON.stringify(added.error));
    expect(added.value.peers.map((p) => p.address)).toEqual(["127.0.0.1:9", "localhost:1849"]);
    expect((await callEndpoint(c, sharedEndpoints.removePeer, { address: "127.0.0.1:9" })).ok).toBe(
      true,
    );
    const removed = await callEndpoint(c, sharedEndpoints.peers, {});
    expect(removed.ok && removed.value.peers.map((p) => p.address)).toEqual(["localhost:1849"]);
    const bad = await callEndpoint(c, sharedEndpoints.addPeer, {}, { address: "no port" });
    if (bad.ok) throw new Error("a bad address was taken");
    expect(bad.error).toMatchObject({ code: ClientErrorCode.HttpStatus, status: 400 });
    const unknown = await callEndpoint(c, sharedEndpoints.removePeer, { address: "127.0.0.1:9" });
    expect(unknown.ok ? 200 : "status" in unknown.error ? unknown.error.status : 0).toBe(404);
  });
});
