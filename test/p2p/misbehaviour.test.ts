/**
 * A real `weft node` process against fake peers served from this test
 * process: a peer that publishes a cut whose block carries a forged header
 * (its hash matches its fields, its weight is wrong) is banned, logged and
 * listed, and the node does not follow it; a peer of another network is
 * refused with a log line; a malformed published cut is a 400 naming the
 * member.
 */

import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeBlockHash } from "../../src-node/chain/blockHash.ts";
import { blockHeaderFromObject } from "../../src-node/chain/blockHeaderObject.ts";
import { type FakePeer, startFakePeer } from "../support/fakePeer.ts";
import { type NodeProcess, startNode, waitFor } from "../support/nodeProcess.ts";

const NETWORK = "test-singleton";
const OBJECT = "application/json;blockheader-encoding=object";

/** A fake peer answering `routes[method + " " + path]` with JSON (its /info proves an identity). */
function fakePeer(
  routes: Record<string, () => unknown>,
  options: { network?: string } = {},
): Promise<FakePeer> {
  return startFakePeer(routes, options);
}

let node: NodeProcess;
const fakes: FakePeer[] = [];

beforeAll(async () => {
  node = await startNode([]);
}, 300_000);

afterAll(async () => {
  await node.stop();
  rmSync(node.dataDir, { recursive: true, force: true });
  for (const f of fakes) await f.close();
}, 60_000);

describe("[p2p] misbehaving peers", () => {
  it("bans a peer serving a forged header, and does not follow it", async () => {
    const genesisCut = await node.cut();
    const g0 = genesisCut.hashes["0"] as { hash: string };
    const genesis = (await (
      await fetch(`${node.base}/chain/0/header/${g0.hash}`, { headers: { accept: OBJECT } })
    ).json()) as Record<string, unknown>;
    const genesisBlock = (await (
      await fetch(`${node.base}/chain/0/block?minheight=0&maxheight=0`)
    ).json()) as { items: { payloadWithOutputs: unknown }[] };
    const payload = genesisBlock.items[0]?.payloadWithOutputs;
    const adjacents = Object.fromEntries(
      Object.keys(genesis.adjacents as object).map((c) => [
        c,
        (genesisCut.hashes[c] as { hash: string }).hash,
      ]),
    );
    const fields = {
      ...genesis,
      parent: g0.hash,
      height: 1,
      adjacents,
      creationTime: (genesis.creationTime as number) + 30_000_000,
      // Forged: the weight of its parent, not parent + difficulty.
    };
    const forgedHash = computeBlockHash(blockHeaderFromObject(fields, { verifyHash: false }));
    const forged = { ...fields, hash: forgedHash };
    let fake: FakePeer | undefined;
    const fakeCut = () => ({
      hashes: { ...genesisCut.hashes, "0": { height: 1, hash: forgedHash } },
      origin: {
        id: null,
        address: { hostname: "127.0.0.1", port: Number(fake?.address.split(":")[1]) },
      },
      weight: `${"_".repeat(42)}A`,
      height: 1,
      instance: NETWORK,
      id: forgedHash,
    });
    fake = await fakePeer({
      [`GET /ledger/0.0/${NETWORK}/cut`]: fakeCut,
      [`GET /ledger/0.0/${NETWORK}/cut/peer`]: () => ({ limit: 0, items: [], next: null }),
      [`POST /ledger/0.0/${NETWORK}/chain/0/block/branch`]: () => ({
        limit: 1,
        items: [{ header: forged, payloadWithOutputs: payload }],
        next: null,
      }),
    });
    fakes.push(fake);
    const put = await fetch(`${node.base}/cut`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(fakeCut()),
    });
    expect(put.status, await put.clone().text()).toBe(204);
    const address = fake.address;
    const listed = await waitFor("the fake peer's ban", async () => {
      const body = (await (await node.app("peers")).json()) as {
        peers: { address: string; score: number; bannedUntil: string | null; lastError: string }[];
      };
      const p = body.peers.find((x) => x.address === address);
      return p?.bannedUntil === null || p === undefined ? undefined : p;
    });
    expect(listed.score).toBeGreaterThanOrEqual(100);
    expect(listed.lastError).toContain(forgedHash);
    expect(node.stderr()).toMatch(new RegExp(`peer ${address} banned until`));
    // Not followed: the forged block is not stored, the cut is still genesis.
    expect((await fetch(`${node.base}/chain/0/header/${forgedHash}`)).status).toBe(404);
    expect((await node.cut()).height).toBe(0);
    // A banned peer's cuts are refused.
    const again = await fetch(`${node.base}/cut`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(fakeCut()),
    });
    expect(again.status).toBe(403);
  }, 300_000);

  it("refuses a peer of another network with a log line", async () => {
    const other = await fakePeer({}, { network: "development" });
    fakes.push(other);
    const r = await node.app("peers", { method: "POST", body: { address: other.address } });
    expect(r.status, await r.clone().text()).toBe(200);
    await waitFor("the refusal", async () =>
      node.stderr().includes(`peer ${other.address} refused: it runs network development`)
        ? true
        : undefined,
    );
    const body = (await (await node.app("peers")).json()) as {
      peers: { address: string; network: string }[];
    };
    expect(body.peers.find((p) => p.address === other.address)?.network).toBe("refused");
  }, 120_000);

  it("answers 400 naming the member for a malformed or anonymous published cut", async () => {
    const cut = await node.cut();
    const put = (body: unknown) =>
      fetch(`${node.base}/cut`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const anonymous = await put(cut);
    expect(anonymous.status).toBe(400);
    expect(await anonymous.text()).toMatch(/^origin: /);
    const badHash = await put({
      ...cut,
      origin: { id: null, address: { hostname: "127.0.0.1", port: 1 } },
      hashes: { "0": { height: 0, hash: "nope" } },
    });
    expect(badHash.status).toBe(400);
    expect(await badHash.text()).toMatch(/^hashes\.0\.hash: /);
    const otherNetwork = await put({
      ...cut,
      instance: "development",
      origin: { id: null, address: { hostname: "127.0.0.1", port: 1 } },
    });
    expect(otherNetwork.status).toBe(400);
    expect(await otherNetwork.text()).toContain("development");
    // Removing an unknown peer is a 404; a bad address a 400.
    expect((await node.app("peers/127.0.0.1:9", { method: "DELETE" })).status).toBe(404);
    const bad = await node.app("peers", { method: "POST", body: { address: "no port" } });
    expect(bad.status).toBe(400);
  }, 120_000);
});
