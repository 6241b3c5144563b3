/**
 * Block pages sent as text from the stored rows (api/routes/blockRoutes.ts
 * `storedBlockText`, store `storedBlock`, joinedPages.ts `joinedBlockPage`):
 * for every block of a chain with transfers and of the genesis (large
 * modules), the text is byte for byte `JSON.stringify` of the block's JSON
 * object, and ascending pages written as bytes give the same blocks in
 * (height, hash) order whatever the page size.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockJson, storedBlockText } from "../../src-node/api/routes/blockRoutes.ts";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { extendableChains } from "../../src-node/chain/cutExtension.ts";
import { contractInputOf } from "../../src-node/exec/contractInput.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import type { Cursor } from "../../src-node/store/blockPages.ts";
import { joinedBlockPage } from "../../src-node/store/joinedPages.ts";
import {
  type ExecChain,
  openExecChain,
  signedCommand,
  transferCaps,
} from "../support/execChain.ts";

type Transfers = { payloadWithOutputs: { transactions: unknown[] } };

let x: ExecChain;
beforeAll(() => {
  x = openExecChain();
  const transfers = (b: number) =>
    Array.from({ length: 4 }, (_, i) => {
      const command = nodeCommands.parseCommand(
        JSON.parse(
          JSON.stringify(
            signedCommand({
              code: '(coin.transfer "sender01" "sender02" 0.5)',
              sender: "sender01",
              chainId: 0,
              gasLimit: 600,
              signers: [{ key: 1, caps: transferCaps("sender01", "sender02", "0.5") }],
              nonce: `stored-text-${b}-${i}`,
            }),
          ),
        ),
      );
      return { command, input: contractInputOf(command) };
    });
  // Blocks on whichever chain braiding lets grow next; chain 0's carry transfers.
  let b = 0;
  while ((x.blocks.cut().get(0)?.height ?? 0) < 3) {
    const chainId = extendableChains(x.blocks.cut(), x.version, (h) =>
      x.blocks.header(h.parent),
    )[0] as number;
    x.blocks.insertBlock(x.nextBlock(chainId, chainId === 0 ? transfers(b++) : []));
  }
});
afterAll(() => x.close());

describe("[store] blocks sent as stored text", () => {
  it("gives JSON.stringify of the block's JSON for every block, one by one and as a range", () => {
    const head = x.blocks.cut().get(0) as BlockHeader;
    expect(head.height).toBeGreaterThanOrEqual(3);
    const chain: BlockHeader[] = [];
    for (let h = 0; h <= head.height; h++) chain.push(x.blocks.ancestorAt(head, h) as BlockHeader);
    const expected = chain.map((h) => {
      const payload = x.blocks.payload(h.payloadHash);
      if (payload === undefined) throw new Error("no payload");
      return JSON.stringify(blockJson({ header: h, payload }));
    });
    // The genesis payload holds the system contracts: large texts.
    expect(expected.some((t) => t.length > 10_000)).toBe(true);
    const one = chain.map((h) => {
      const b = x.blocks.store.storedBlock(h.hash);
      if (b === undefined) throw new Error("not stored");
      return storedBlockText(b);
    });
    expect(one).toEqual(expected);
    expect(
      one.some((t) => (JSON.parse(t) as Transfers).payloadWithOutputs.transactions.length === 4),
    ).toBe(true);
    // Ascending pages written as bytes (store/joinedPages.ts), any page size, cursors followed.
    for (const limit of [1, 2, 3, 360]) {
      const texts: string[] = [];
      let next: Cursor | undefined;
      for (let i = 0; i < 100; i++) {
        const page = joinedBlockPage(x.blocks, 0, { limit, next });
        if (page.count > 0) texts.push(page.items.toString());
        if (page.next === null || !page.next.inclusive) break;
        next = page.next;
      }
      expect(texts.join(","), `limit ${limit}`).toBe(expected.join(","));
    }
    const bounded = joinedBlockPage(x.blocks, 0, { limit: 2, minHeight: 1, maxHeight: 2 });
    expect(bounded.count).toBe(2);
    expect(bounded.items.toString()).toBe(expected.slice(1, 3).join(","));
    expect(bounded.next).toEqual({ inclusive: false, hash: chain[2]?.hash });
  });
});
