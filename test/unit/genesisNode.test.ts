/**
 * A new data directory starts with the real genesis payloads: the node's
 * genesis headers commit to them and `GET …/chain/{c}/block` serves the
 * genesis block with its genesis transactions and their outputs; a node
 * reopens its own data directory.
 */
import { afterEach, describe, expect, it } from "vitest";
import { base64UrlDecode } from "../../src-node/encoding/base64url.ts";
import { genesisPayloadOf } from "../../src-node/genesis/genesisPayloads.ts";
import { SYSTEM_CONTRACTS } from "../../src-node/genesis/systemContracts.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

let t: TestNode | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

describe("[genesis] the node's genesis blocks", () => {
  it("commit to the network's genesis payloads", async () => {
    t = await openTestNode({ network: "development" });
    const { blocks, version } = t.node;
    for (const c of version.chainIds) {
      const header = blocks.genesis.get(c);
      if (header === undefined) throw new Error(`no genesis header for chain ${c}`);
      expect(header.payloadHash).toBe(genesisPayloadOf(version, c).payloadHash);
      expect(blocks.payload(header.payloadHash)?.transactions.length).toBe(
        SYSTEM_CONTRACTS.length + 1,
      );
    }
  });

  it("are served with their transactions and outputs", async () => {
    t = await openTestNode();
    const r = await t.request("GET", `${t.base}/chain/3/block?maxheight=0`);
    expect(r.statusCode).toBe(200);
    const body = JSON.parse(r.body) as {
      items: {
        header: { height: number };
        payloadWithOutputs: { transactions: [string, string][] };
      }[];
    };
    const genesis = body.items[0];
    expect(genesis?.header.height).toBe(0);
    const txs = genesis?.payloadWithOutputs.transactions ?? [];
    expect(txs.length).toBe(SYSTEM_CONTRACTS.length + 1);
    const decode = (s: string) => JSON.parse(new TextDecoder().decode(base64UrlDecode(s, "tx")));
    const [tx, out] = txs[2] as [string, string];
    expect(JSON.parse(decode(tx).cmd).nonce).toBe("genesis-2-coin");
    expect(decode(out).result).toEqual({ status: "success", data: "TableCreated" });
  });

  it("reopen the same data directory", async () => {
    const dir = tempDir();
    t = await openTestNode({ dir });
    const cut = t.node.blocks.cut();
    await t.node.close();
    t = await openTestNode({ dir });
    expect([...t.node.blocks.cut().values()].map((h) => h.hash)).toEqual(
      [...cut.values()].map((h) => h.hash),
    );
  });
});
