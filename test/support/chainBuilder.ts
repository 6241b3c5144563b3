/**
 * Builds valid blocks (headers and payloads) quickly, for tests and
 * benchmarks: on the test versions (`test-singleton`, `test-transition`)
 * every nonce meets the maximal target, so no mining happens. A builder has
 * its own cut and extends it the way a miner does (cut extension, new header
 * with computed target, epoch start and weight); `fork()` copies the builder
 * so that a second branch can grow from the same cut. Creation times are
 * simulated (1 s after the latest parent), never the wall clock.
 *
 * Every block carries a small payload naming the builder's label, chain and
 * height, so blocks of different branches differ even at the same parent.
 * Given a {@link PayloadSource} (executingPayloads.ts), payloads come from
 * it instead: executed for real, so nodes (which execute every block they
 * accept) take them.
 */

import { computeBlockHash } from "../../src-node/chain/blockHash.ts";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { type Cut, genesisCut, withJoinedChains } from "../../src-node/chain/cut.ts";
import { cutExtension, extendableChains, extendCut } from "../../src-node/chain/cutExtension.ts";
import { MAX_TARGET } from "../../src-node/chain/difficulty.ts";
import { genesisHeadersOf } from "../../src-node/chain/genesisHeader.ts";
import { buildGenesisPayload } from "../../src-node/chain/genesisPayload.ts";
import { minerDataBytes } from "../../src-node/chain/minerData.ts";
import type { NetworkVersion } from "../../src-node/chain/networkVersion.ts";
import { newBlockHeader } from "../../src-node/chain/newBlockHeader.ts";
import {
  buildPayloadWithOutputs,
  type PayloadWithOutputs,
} from "../../src-node/chain/payloadWithOutputs.ts";
import { hasValidPow } from "../../src-node/chain/pow.ts";
import type { Hash32 } from "../../src-node/encoding/hash32.ts";
import type { Block } from "../../src-node/store/blockDb.ts";

const encoder = new TextEncoder();

export type NextBlockOptions = {
  /** Number of (fake) transactions in the payload. Default 1. */
  readonly transactions?: number;
  /** µs; default 1 s after the latest of the parent and adjacent parents. */
  readonly creationTime?: number;
};

/** A payload with `n` fake transactions naming `label`, chain and height. */
export function testPayload(
  label: string,
  chainId: number,
  height: number,
  n = 1,
): PayloadWithOutputs {
  const transactions = Array.from({ length: n }, (_, i) => ({
    transaction: encoder.encode(JSON.stringify({ label, chainId, height, tx: i })),
    output: encoder.encode(JSON.stringify({ result: { status: "success", data: i }, gas: 1 })),
  }));
  return buildPayloadWithOutputs({
    transactions,
    minerData: minerDataBytes({ account: label, predicate: "keys-all", publicKeys: [] }),
    coinbase: encoder.encode(JSON.stringify({ coinbase: label, chainId, height })),
  });
}

/** Where a builder's payloads come from when they must execute (nodes execute every block). */
export type PayloadSource = {
  /** The payload of a block on `parent` with `transactions` commands, created at `creationTime` µs. */
  payloadFor(
    parent: BlockHeader,
    label: string,
    transactions: number,
    creationTime: number,
  ): PayloadWithOutputs;
  /** Told about every block built (to execute the next ones on top). */
  accept(block: Block): void;
};

export class ChainBuilder {
  readonly version: NetworkVersion;
  readonly genesis: ReadonlyMap<number, BlockHeader>;
  /** Every header built by this builder and its forks, genesis included. */
  readonly headers: Map<Hash32, BlockHeader>;
  readonly label: string;
  readonly payloads: PayloadSource | undefined;
  cut: Cut;

  private constructor(
    version: NetworkVersion,
    genesis: ReadonlyMap<number, BlockHeader>,
    headers: Map<Hash32, BlockHeader>,
    cut: Cut,
    label: string,
    payloads: PayloadSource | undefined,
  ) {
    this.version = version;
    this.genesis = genesis;
    this.headers = headers;
    this.cut = cut;
    this.label = label;
    this.payloads = payloads;
  }

  /**
   * A builder at the genesis cut: of `genesis` (e.g. a node's `blocks.genesis`),
   * or of genesis payloads without transactions (BlockDb's default).
   * `payloads`: executed payloads (executingPayloads.ts), for nodes.
   */
  static create(
    version: NetworkVersion,
    label = "main",
    genesisHeaders?: ReadonlyMap<number, BlockHeader>,
    payloads?: PayloadSource,
  ): ChainBuilder {
    const payload = buildGenesisPayload([]);
    const genesis = genesisHeaders ?? genesisHeadersOf(version, () => payload.payloadHash);
    const headers = new Map<Hash32, BlockHeader>([...genesis.values()].map((h) => [h.hash, h]));
    return new ChainBuilder(
      version,
      genesis,
      headers,
      genesisCut(version, genesis),
      label,
      payloads,
    );
  }

  /** A second builder on the same cut, sharing the header table, with another label. */
  fork(label: string): ChainBuilder {
    return new ChainBuilder(
      this.version,
      this.genesis,
      this.headers,
      this.cut,
      label,
      this.payloads,
    );
  }

  parentOf = (h: BlockHeader): BlockHeader | undefined => this.headers.get(h.parent);

  /**
   * Builds the next block on `chainId` on this builder's cut and moves the cut.
   * Throws (a test-support failure) when the chain cannot be extended yet.
   */
  next(chainId: number, options: NextBlockOptions = {}): Block {
    const ext = cutExtension(this.cut, this.version, chainId, this.parentOf);
    if (ext.status !== "ready") {
      throw new Error(`chain ${chainId} cannot be extended (${ext.reason})`);
    }
    const latest = Math.max(
      ext.parent.creationTime,
      ...ext.adjacentParents.map((a) => a.creationTime),
    );
    const creationTime = options.creationTime ?? latest + 1_000_000;
    const transactions = options.transactions ?? 1;
    const payload =
      this.payloads?.payloadFor(ext.parent, this.label, transactions, creationTime) ??
      testPayload(this.label, chainId, ext.parent.height + 1, transactions);
    let header = newBlockHeader({
      version: this.version,
      parent: ext.parent,
      adjacentParents: ext.adjacentParents,
      creationTime,
      payloadHash: payload.payloadHash,
    });
    // At the maximal target every nonce is valid; skip the hashing.
    const trivial = header.target >= MAX_TARGET;
    for (let nonce = 1n; this.version.checkPow && !trivial && !hasValidPow(header); nonce++) {
      if (nonce > 2_000_000n) throw new Error("target too hard for a test builder");
      const solved = { ...header, nonce };
      header = { ...solved, hash: computeBlockHash(solved) };
    }
    this.headers.set(header.hash, header);
    this.cut = withJoinedChains(extendCut(this.cut, header), this.version, this.genesis);
    this.payloads?.accept({ header, payload });
    return { header, payload };
  }

  /** One block on every chain that can be extended now, in ascending chain order. */
  round(options: NextBlockOptions = {}): Block[] {
    return extendableChains(this.cut, this.version, this.parentOf).map((c) =>
      this.next(c, options),
    );
  }

  /** `n` rounds. */
  rounds(n: number, options: NextBlockOptions = {}): Block[] {
    const out: Block[] = [];
    for (let i = 0; i < n; i++) out.push(...this.round(options));
    return out;
  }
}
