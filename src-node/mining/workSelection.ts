/**
 * Which chain the next work item extends (reference chainweb-api.md §5.3):
 * only chains whose adjacent chains have caught up can be extended
 * (chain/cutExtension.ts has the braiding rule). A suggested chain is taken
 * when it can be extended; otherwise, or without a suggestion, a chain is
 * drawn uniformly from those that can.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import type { Cut } from "../chain/cut.ts";
import { cutExtension, type ParentLookup } from "../chain/cutExtension.ts";
import type { NetworkVersion } from "../chain/networkVersion.ts";
import { MiningError, MiningErrorCode } from "./errors.ts";

/** A chain that can be extended now, with what its next block builds on. */
export type WorkPlace = {
  readonly chainId: number;
  readonly parent: BlockHeader;
  /** One per adjacent chain, ascending by chain id, all at the parent's height. */
  readonly adjacentParents: readonly BlockHeader[];
};

/** The place on `chainId`, or undefined when that chain is not in the cut or is blocked. */
export function workPlaceOn(
  cut: Cut,
  version: NetworkVersion,
  chainId: number,
  parentOf: ParentLookup,
): WorkPlace | undefined {
  if (!cut.has(chainId)) return undefined;
  const ext = cutExtension(cut, version, chainId, parentOf);
  return ext.status === "ready"
    ? { chainId, parent: ext.parent, adjacentParents: ext.adjacentParents }
    : undefined;
}

/**
 * The place of the next work item: on `suggestion` when it can be extended,
 * else on a chain drawn with `random` (uniform in [0, 1)) from the chains
 * that can; undefined when none can.
 * @throws {MiningError} MINING_BAD_CHAIN when `suggestion` is no chain of the network.
 */
export function selectWorkPlace(
  cut: Cut,
  version: NetworkVersion,
  parentOf: ParentLookup,
  suggestion: number | undefined,
  random: () => number,
): WorkPlace | undefined {
  if (suggestion !== undefined) {
    if (!version.chainIds.includes(suggestion)) {
      throw new MiningError(
        { code: MiningErrorCode.BadChain, field: "chain", value: String(suggestion) },
        `chain: ${suggestion} is not a chain of ${version.name}`,
      );
    }
    const place = workPlaceOn(cut, version, suggestion, parentOf);
    if (place !== undefined) return place;
  }
  const ready: WorkPlace[] = [];
  for (const c of [...cut.keys()].sort((a, b) => a - b)) {
    const place = workPlaceOn(cut, version, c, parentOf);
    if (place !== undefined) ready.push(place);
  }
  if (ready.length === 0) return undefined;
  const i = Math.min(ready.length - 1, Math.floor(random() * ready.length));
  return ready[i];
}
