/**
 * What executing a command needs besides the state: the network, the
 * namespace policy, and the headers SPV proofs are checked against. The
 * node's `ChainExecutor` and an execution worker (execWorker.ts) build the
 * same {@link BlockEnv} from it, over their own connections; payload building
 * and /local add the wall-clock limit to it ({@link timedEnvOf}).
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import type { NetworkVersion } from "../chain/networkVersion.ts";
import type { NamespacePolicy } from "../contract/eval/runtimeContext.ts";
import type { ContractStorage } from "../contract/storage/contractStorage.ts";
import type { BlockEnv } from "./blockEnv.ts";
import { type SpvHeaderSource, spvVerifier } from "./spvVerifier.ts";

export type ExecContext = {
  readonly version: NetworkVersion;
  readonly namespacePolicy: NamespacePolicy;
  /** How many blocks below the parent an SPV proof's root may be. */
  readonly spvProofDepth: number;
  readonly headers: SpvHeaderSource;
  /**
   * Wall-clock limit of one command's evaluation in payload building and
   * /local (exec/timeLimit.ts); block validation never has one.
   */
  readonly commandTimeLimitMs: number;
};

/**
 * The environment of a block on `parent` (proofs are checked against its
 * history), without a time limit: what validation runs in.
 */
export function blockEnvOf(
  ctx: ExecContext,
  chainId: number,
  parent: BlockHeader,
  storage: ContractStorage,
): BlockEnv {
  return {
    version: ctx.version,
    chainId,
    parent,
    storage,
    namespacePolicy: ctx.namespacePolicy,
    spv: spvVerifier({ blocks: ctx.headers, chainId, parent, maxDepth: ctx.spvProofDepth }),
  };
}

/** The environment of payload building and /local on `parent`: {@link blockEnvOf} with the time limit. */
export function timedEnvOf(
  ctx: ExecContext,
  chainId: number,
  parent: BlockHeader,
  storage: ContractStorage,
): BlockEnv {
  // One literal, not a spread of blockEnvOf's: /local builds one per command.
  return {
    version: ctx.version,
    chainId,
    parent,
    storage,
    namespacePolicy: ctx.namespacePolicy,
    spv: spvVerifier({ blocks: ctx.headers, chainId, parent, maxDepth: ctx.spvProofDepth }),
    timeLimitMs: ctx.commandTimeLimitMs,
  };
}
