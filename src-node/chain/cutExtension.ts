/**
 * Extending a cut (reference chainweb-api.md §5.3, `getCutExtension`,
 * `isMonotonicCutExtension`). To mine on a chain whose head P is at height h,
 * take for each chain adjacent in the graph at h the head B of the cut:
 * B at h + 1 → B's parent; B at h → B; B at h − 1 → blocked (the neighbour
 * is behind); anything else → the cut is invalid. During a graph change, a
 * head at a change height is blocked until every chain has reached it.
 * @module
 */
import type { BlockHeader } from "./blockHeader.ts";
import { type Cut, cutMaxHeight, cutMinHeight, cutOf } from "./cut.ts";
import { ChainError, ChainErrorCode } from "./errors.ts";
import { graphAtHeight } from "./graphHistory.ts";
import { type NetworkVersion, versionGraphChanges } from "./networkVersion.ts";

/** Finds the parent of a header (e.g. in the block store). */
export type ParentLookup = (header: BlockHeader) => BlockHeader | undefined;

export type CutExtension =
  | {
      readonly status: "ready";
      readonly parent: BlockHeader;
      /** Ascending by chain id, one per adjacent chain, all at the parent's height. */
      readonly adjacentParents: readonly BlockHeader[];
    }
  | {
      readonly status: "blocked";
      readonly chainId: number;
      /** `behind`: an adjacent chain is one block lower; `transition`: a graph change is under way. */
      readonly reason: "behind" | "transition";
      /** The chain that is behind (`behind` only). */
      readonly blockedBy: number | null;
    };

function invalid(reason: string): never {
  throw new ChainError({ code: ChainErrorCode.InvalidCut, field: "cut", reason }, `cut: ${reason}`);
}

/**
 * What a new block on `chainId` would build on, or why it cannot be mined yet.
 * @throws {ChainError} CHAIN_INVALID_CUT when the chain is not in the cut, a
 *   neighbour is missing or more than one block apart, or a parent is unknown.
 */
export function cutExtension(
  cut: Cut,
  version: NetworkVersion,
  chainId: number,
  parentOf: ParentLookup,
): CutExtension {
  const parent = cut.get(chainId);
  if (parent === undefined) invalid(`chain ${chainId} is not in the cut`);
  const h = parent.height;
  const min = cutMinHeight(cut);
  const max = cutMaxHeight(cut);
  for (const change of versionGraphChanges(version)) {
    if (min < change && change <= max && h === change) {
      return { status: "blocked", chainId, reason: "transition", blockedBy: null };
    }
  }
  const adjacentParents: BlockHeader[] = [];
  for (const c of graphAtHeight(version.graphHistory, h).adjacency.get(chainId) ?? []) {
    const b = cut.get(c);
    if (b === undefined) invalid(`adjacent chain ${c} of chain ${chainId} is not in the cut`);
    if (b.height === h + 1) {
      const bp = parentOf(b);
      if (bp === undefined || bp.hash !== b.parent)
        invalid(`parent of ${b.hash} on chain ${c} unknown`);
      adjacentParents.push(bp);
    } else if (b.height === h) {
      adjacentParents.push(b);
    } else if (b.height === h - 1) {
      return { status: "blocked", chainId, reason: "behind", blockedBy: c };
    } else {
      invalid(`chains ${chainId} (height ${h}) and ${c} (height ${b.height}) are not braided`);
    }
  }
  return { status: "ready", parent, adjacentParents };
}

/** The chains of the cut that can be extended now, ascending. */
export function extendableChains(
  cut: Cut,
  version: NetworkVersion,
  parentOf: ParentLookup,
): number[] {
  return [...cut.keys()]
    .sort((a, b) => a - b)
    .filter((c) => cutExtension(cut, version, c, parentOf).status === "ready");
}

/**
 * The cut with `header` as the new head of its chain, if it extends the cut:
 * its parent is the cut's head on its chain, and each adjacent parent it
 * names is the cut's head on that chain or that head's parent.
 * @throws {ChainError} CHAIN_NOT_MONOTONIC otherwise.
 */
export function extendCut(cut: Cut, header: BlockHeader): Cut {
  const notMonotonic = (reason: string): never => {
    throw new ChainError(
      { code: ChainErrorCode.NotMonotonic, field: "header", reason },
      `header ${header.hash} does not extend the cut: ${reason}`,
    );
  };
  const head = cut.get(header.chainId);
  if (head === undefined) return notMonotonic(`chain ${header.chainId} is not in the cut`);
  if (head.hash !== header.parent)
    notMonotonic(`its parent is not the head of chain ${header.chainId}`);
  for (const a of header.adjacents) {
    const b = cut.get(a.chainId);
    if (b === undefined) return notMonotonic(`adjacent chain ${a.chainId} is not in the cut`);
    if (b.hash !== a.hash && b.parent !== a.hash) {
      notMonotonic(
        `its adjacent parent on chain ${a.chainId} is neither the head nor the head's parent`,
      );
    }
  }
  return cutOf([...[...cut.values()].filter((h) => h.chainId !== header.chainId), header]);
}
