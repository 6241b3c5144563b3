/**
 * The live view of the node's cut: one head per chain, kept current from the header
 * update stream and re-synchronised from `GET /cut` (at start, after every reconnection and
 * now and then). A snapshot never overwrites a head the stream reported after the snapshot
 * was requested, so a slow `/cut` reply cannot move a chain backwards.
 * @module
 */
import type { Cut } from "../api/cut.ts";
import type { HeaderUpdate } from "../api/headerUpdate.ts";

export type ChainHead = {
  readonly chainId: number;
  readonly height: number;
  readonly hash: string;
  /** When the stream last reported this head (ms clock); null when it came from a snapshot. */
  readonly seenAt: number | null;
};

export type ChainHeights = {
  /** Sorted by chain id. */
  readonly heads: readonly ChainHead[];
  /** Sum of the heads' heights (the cut height). */
  readonly cutHeight: number;
  /** Whether a snapshot has arrived yet. */
  readonly loaded: boolean;
};

export type ChainHeightsAction =
  | { readonly type: "snapshot"; readonly cut: Cut; readonly requestedAt: number }
  | { readonly type: "header"; readonly update: HeaderUpdate; readonly at: number };

export const emptyChainHeights: ChainHeights = { heads: [], cutHeight: 0, loaded: false };

function withHeads(heads: ChainHead[], loaded: boolean): ChainHeights {
  heads.sort((a, b) => a.chainId - b.chainId);
  return { heads, cutHeight: heads.reduce((sum, h) => sum + h.height, 0), loaded };
}

export function chainHeightsReducer(state: ChainHeights, action: ChainHeightsAction): ChainHeights {
  switch (action.type) {
    case "snapshot": {
      const byChain = new Map(state.heads.map((h) => [h.chainId, h]));
      const heads = action.cut.heads.map((c): ChainHead => {
        const current = byChain.get(c.chainId);
        if (current?.seenAt != null && current.seenAt >= action.requestedAt) return current;
        return { chainId: c.chainId, height: c.height, hash: c.hash, seenAt: null };
      });
      return withHeads(heads, true);
    }
    case "header": {
      const u = action.update;
      const rest = state.heads.filter((h) => h.chainId !== u.chainId);
      return withHeads(
        [...rest, { chainId: u.chainId, height: u.height, hash: u.hash, seenAt: action.at }],
        state.loaded,
      );
    }
    default: {
      const never: never = action;
      return never;
    }
  }
}
