/**
 * What the mining service needs from the block database: the network, the
 * best cut, headers by hash, inserting a block, and cut-change
 * notifications. `store/blockDb.ts`'s `BlockDb` has this shape; tests may
 * pass any other.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import type { Cut } from "../chain/cut.ts";
import type { NetworkVersion } from "../chain/networkVersion.ts";
import type { PayloadWithOutputs } from "../chain/payloadWithOutputs.ts";
import type { Hash32 } from "../encoding/hash32.ts";

export type MiningChain = {
  readonly version: NetworkVersion;
  /** The best cut. */
  cut(): Cut;
  header(hash: Hash32): BlockHeader | undefined;
  /**
   * Validates and stores a block (a block off the best cut is kept as a fork
   * block); throws the coded error of the first rule it breaks.
   */
  insertBlock(block: { readonly header: BlockHeader; readonly payload: PayloadWithOutputs }): {
    readonly status: "inserted" | "known";
    readonly cutChanged: boolean;
  };
  /** Calls `listener` after each change of the best cut; returns the unsubscribe function. */
  onCutChange(listener: (change: { readonly cut: Cut }) => void): () => void;
};
