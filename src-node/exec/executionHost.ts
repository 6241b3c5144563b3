/**
 * `ExecutionHost`: where contract execution for the API and mining runs.
 * /local and payload building go through it, asynchronously, so that the
 * node can run them off its event loop (workerExecution.ts: a pool of
 * execution worker threads, what the node uses). {@link InProcessExecution}
 * runs them on the calling thread with the node's `ChainExecutor` (unit
 * tests, and the fallback when workers cannot start).
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import type { MinerInfo } from "../chain/minerData.ts";
import type { Block } from "../store/blockDb.ts";
import type { ChainExecutor } from "./chainExecutor.ts";
import type { LocalAnswer } from "./localRun.ts";
import { nodeCommands } from "./nodeCommands.ts";
import type { BuiltPayload, ReadyCommand } from "./payloadBuilder.ts";

export type LocalRequest = {
  readonly preflight: boolean;
  readonly signatureVerification: boolean;
  /** Blocks below the best head to run on (clamped at genesis). */
  readonly rewindDepth: number;
};

export interface ExecutionHost {
  /**
   * /local: parses `body` (a command as JSON data), checks its signatures
   * when asked, and runs it on the state `rewindDepth` blocks below the
   * best head of `chainId` (a known chain), persisting nothing.
   * @throws {CommandError} for a malformed command or bad signatures.
   */
  local(chainId: number, body: unknown, request: LocalRequest): Promise<LocalAnswer>;
  /**
   * {@link local}, answered without a promise when the command runs on the
   * calling thread (the API then answers it in the same turn: the /local
   * path of the small commands wallets send has no promise to settle), a
   * promise when it runs elsewhere.
   * @throws {CommandError} at once, for a malformed command or bad signatures
   *   found on the calling thread.
   */
  localNowOrLater(
    chainId: number,
    body: unknown,
    request: LocalRequest,
  ): LocalAnswer | Promise<LocalAnswer>;
  /** The payload of a new block on `parent` (payloadBuilder.ts); included commands are remembered for validation. */
  buildPayload(
    parent: BlockHeader,
    miner: MinerInfo,
    candidates: readonly ReadyCommand[],
    blockTimeS: number,
  ): Promise<BuiltPayload>;
  /**
   * Executes `block` ahead of its insert where it does not hold the node's
   * thread, and hands the outcome to the executor (`ChainExecutor.offerPrepared`):
   * `BlockDb.insertBlock` then writes the rows (or rejects the block)
   * without executing it. Resolves without preparing anything when it cannot
   * (the insert then executes the block itself); a fault of the block is its
   * verdict, never a rejection of this promise.
   */
  prepareBlock(block: Block): Promise<void>;
  /** Ends the host; requests still running fail with EXEC_SHUTTING_DOWN. */
  close(): Promise<void>;
}

/** Execution on the calling thread, through the node's `ChainExecutor`. */
export class InProcessExecution implements ExecutionHost {
  readonly #executor: ChainExecutor;

  constructor(executor: ChainExecutor) {
    this.#executor = executor;
  }

  async local(chainId: number, body: unknown, request: LocalRequest): Promise<LocalAnswer> {
    return this.localNowOrLater(chainId, body, request);
  }

  localNowOrLater(chainId: number, body: unknown, request: LocalRequest): LocalAnswer {
    const command = nodeCommands.parseCommand(body);
    if (request.signatureVerification) nodeCommands.verifyCommandSignatures(command);
    return this.#executor.local(chainId, command, request);
  }

  async buildPayload(
    parent: BlockHeader,
    miner: MinerInfo,
    candidates: readonly ReadyCommand[],
    blockTimeS: number,
  ): Promise<BuiltPayload> {
    return this.#executor.buildPayload(parent, miner, candidates, blockTimeS);
  }

  /** In process, the insert executes the block: nothing to do ahead. */
  async prepareBlock(_block: Block): Promise<void> {
    // The insert executes the block in this thread; there is no worker to warm up.
  }

  async close(): Promise<void> {
    // Nothing of its own to close: the executor's databases belong to the node.
  }
}
