/**
 * Making the SPV proof of a command's output (reference chainweb-api.md
 * §9.1): the output of transaction i of block B on the source chain, proven
 * up to a block hash T of the target chain's best chain whose history holds
 * B. Innermost first: the outputs tree (subject: tag 0x0014 ‖ output JSON,
 * position i + 1), the payload tree, B's header tree, then one header tree
 * per level above B, through the parent leaf (same chain) or an adjacent
 * parent leaf (a hop to another chain), up to T. T is the lowest such
 * header (spvRoute.ts); going down from T the walk hops towards the source
 * first, smallest chain id first, so the proof is deterministic.
 * @module
 */

import { HeaderLeaf } from "../chain/blockHash.ts";
import type { BlockHeader } from "../chain/blockHeader.ts";
import {
  adjacentLeafIndex,
  headerProofSteps,
  payloadOutputProofSteps,
} from "../chain/merkleProofPaths.ts";
import { MerkleTag } from "../chain/merkleTags.ts";
import type { NetworkVersion } from "../chain/networkVersion.ts";
import type { PayloadWithOutputs } from "../chain/payloadWithOutputs.ts";
import type { SpvProof } from "../chain/spvProof.ts";
import { type MerkleProofStep, taggedLeafInput } from "../crypto/merkle.ts";
import type { Hash32 } from "../encoding/hash32.ts";
import { execInvariant, SpvError, SpvErrorCode } from "./errors.ts";
import { spvRoute } from "./spvRoute.ts";

/** What proof creation reads of the block database. */
export type SpvBlockSource = {
  readonly version: NetworkVersion;
  header(hash: Hash32): BlockHeader | undefined;
  payload(payloadHash: Hash32): PayloadWithOutputs | undefined;
  ancestorAt(header: BlockHeader, height: number): BlockHeader | undefined;
};

/** Where the proven command is: its block and its index there. */
export type SpvSource = { readonly blockHash: Hash32; readonly position: number };

export type SpvProofAttempt =
  | { readonly kind: "proof"; readonly proof: SpvProof; readonly target: BlockHeader }
  /** The target chain's head is below `neededHeight`: ask again once it is there. */
  | { readonly kind: "wait"; readonly neededHeight: number };

/**
 * The proof of `source`'s output for `targetChain`, ending at the ancestor of
 * `targetHead` (the target chain's best head) at the target height.
 * @throws {SpvError} SPV_UNREACHABLE when no header of the target chain can
 *   hold the block, or the target header's history does not hold it (the
 *   block left the best chain).
 */
export function createSpvProof(
  db: SpvBlockSource,
  source: SpvSource,
  targetHead: BlockHeader,
): SpvProofAttempt {
  const block = db.header(source.blockHash);
  if (block === undefined) throw execInvariant(`no header for result block ${source.blockHash}`);
  const payload = db.payload(block.payloadHash);
  const output = payload?.transactions[source.position]?.output;
  if (payload === undefined || output === undefined)
    throw execInvariant(`no output ${source.position} in block ${block.hash}`);
  const targetChain = targetHead.chainId;
  const unreachable = (why: string): SpvError =>
    new SpvError(
      { code: SpvErrorCode.Unreachable, sourceChainId: block.chainId, targetChainId: targetChain },
      `SPV target not reachable: Target of SPV proof can't be reached from the source transaction (${why})`,
    );
  const route = spvRoute(db.version, block.chainId, block.height, targetChain);
  if (route === undefined)
    throw unreachable(`no header of chain ${targetChain} has block ${block.hash} in its history`);
  if (targetHead.height < route.targetHeight)
    return { kind: "wait", neededHeight: route.targetHeight };
  const target = db.ancestorAt(targetHead, route.targetHeight);
  if (target === undefined)
    throw execInvariant(`no ancestor at ${route.targetHeight} of ${targetHead.hash}`);

  // Walk down from the target to the source block, remembering each step's leaf.
  const upper: { header: BlockHeader; leaf: number }[] = [];
  let at = target;
  for (let i = route.reach.length - 1; i > 0; i--) {
    const below = route.reach[i - 1] as ReadonlySet<number>;
    const hop = at.adjacents.find((a) => below.has(a.chainId));
    const next =
      hop !== undefined
        ? { hash: hop.hash, leaf: adjacentLeafIndex(at, hop.chainId) }
        : below.has(at.chainId)
          ? { hash: at.parent, leaf: HeaderLeaf.parent as number }
          : undefined;
    const h = next === undefined ? undefined : db.header(next.hash);
    if (next === undefined || h === undefined)
      throw execInvariant(`no way down from ${at.hash} towards ${block.hash}`);
    upper.push({ header: at, leaf: next.leaf });
    at = h;
  }
  if (at.hash !== block.hash)
    throw unreachable(
      `the history of ${target.hash} (chain ${targetChain}, height ${target.height}) holds ${at.hash}, not ${block.hash}`,
    );

  const steps: MerkleProofStep[] = [
    ...payloadOutputProofSteps(payload, source.position),
    ...headerProofSteps(block, HeaderLeaf.payloadHash),
  ];
  for (let i = upper.length - 1; i >= 0; i--) {
    const u = upper[i] as { header: BlockHeader; leaf: number };
    steps.push(...headerProofSteps(u.header, u.leaf));
  }
  return {
    kind: "proof",
    proof: {
      chain: targetChain,
      subject: taggedLeafInput(MerkleTag.transactionOutput, output),
      position: BigInt(source.position + 1),
      steps,
    },
    target,
  };
}
