/**
 * A tiny in-memory chainweb for tests: genesis headers, a header table, a cut
 * and a `mine(chainId)` that extends the cut the way a miner does (cut
 * extension, new header, a nonce search when the target is not trivial).
 * Time is simulated: each block's creation time is `clock()` from the caller
 * (default: 1 s after the latest time used), never the wall clock.
 */

import { computeBlockHash } from "../../src-node/chain/blockHash.ts";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { type Cut, genesisCut, withJoinedChains } from "../../src-node/chain/cut.ts";
import { cutExtension, extendCut } from "../../src-node/chain/cutExtension.ts";
import { genesisHeadersOf } from "../../src-node/chain/genesisHeader.ts";
import { buildGenesisPayload } from "../../src-node/chain/genesisPayload.ts";
import type { NetworkVersion } from "../../src-node/chain/networkVersion.ts";
import { newBlockHeader } from "../../src-node/chain/newBlockHeader.ts";
import { hasValidPow } from "../../src-node/chain/pow.ts";
import type { Hash32 } from "../../src-node/encoding/hash32.ts";

export type SimChainweb = {
  readonly version: NetworkVersion;
  readonly genesis: ReadonlyMap<number, BlockHeader>;
  readonly headers: Map<Hash32, BlockHeader>;
  cut: Cut;
  parentOf(h: BlockHeader): BlockHeader | undefined;
  ancestorAt(h: BlockHeader, height: number): BlockHeader | undefined;
  /** Mines one block on the chain (throws when the chain is blocked) and moves the cut. */
  mine(chainId: number, creationTime?: number): BlockHeader;
  /** The validation input for a stored header. */
  validationInput(
    h: BlockHeader,
    now?: number,
  ): {
    header: BlockHeader;
    parent: BlockHeader | undefined;
    adjacentParents: ReadonlyMap<number, BlockHeader>;
    now: number;
  };
};

export function simChainweb(version: NetworkVersion): SimChainweb {
  const payload = buildGenesisPayload([]);
  const genesis = genesisHeadersOf(version, () => payload.payloadHash);
  const headers = new Map<Hash32, BlockHeader>([...genesis.values()].map((h) => [h.hash, h]));
  let lastTime = version.genesisTime + 1_000_000;
  const parentOf = (h: BlockHeader) => headers.get(h.parent);
  const sim: SimChainweb = {
    version,
    genesis,
    headers,
    cut: genesisCut(version, genesis),
    parentOf,
    ancestorAt(h, height) {
      let x: BlockHeader | undefined = h;
      while (x !== undefined && x.height > height) x = parentOf(x);
      return x;
    },
    mine(chainId, creationTime) {
      const ext = cutExtension(sim.cut, version, chainId, parentOf);
      if (ext.status !== "ready") throw new Error(`chain ${chainId} is blocked (${ext.reason})`);
      const latest = Math.max(
        ext.parent.creationTime,
        ...ext.adjacentParents.map((a) => a.creationTime),
      );
      const time = Math.max(creationTime ?? lastTime + 1_000_000, latest + 1);
      lastTime = time;
      let h = newBlockHeader({
        version,
        parent: ext.parent,
        adjacentParents: ext.adjacentParents,
        creationTime: time,
        payloadHash: payload.payloadHash,
      });
      for (let nonce = 1n; version.checkPow && !hasValidPow(h); nonce++) {
        if (nonce > 1_000_000n) throw new Error("target too hard for a test");
        const solved = { ...h, nonce };
        h = { ...solved, hash: computeBlockHash(solved) };
      }
      headers.set(h.hash, h);
      sim.cut = withJoinedChains(extendCut(sim.cut, h), version, genesis);
      return h;
    },
    validationInput(h, now) {
      return {
        header: h,
        parent: parentOf(h),
        adjacentParents: new Map(
          h.adjacents.flatMap((a) => {
            const x = headers.get(a.hash);
            return x === undefined ? [] : [[a.chainId, x] as const];
          }),
        ),
        now: now ?? h.creationTime,
      };
    },
  };
  return sim;
}
