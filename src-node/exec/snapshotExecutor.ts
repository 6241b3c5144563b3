/**
 * `SnapshotExecutor`: what an execution worker (execWorker.ts) does, over
 * read-only connections to state.sqlite and blocks.sqlite beside the node's
 * writer. Each request runs on one read snapshot, on the state after the
 * parent block the node named; if the state no longer holds that block
 * (the node rewound the chain meanwhile) the answer is `stale` and the node
 * asks again. Nothing is written: /local, payload building and block
 * execution use storages that keep their commits in memory; an executed
 * block's rows go back to the node, which writes them.
 *
 * The state's decoded system records (modules) are cached across requests
 * by row version; transaction ids are reused after a rewind, so a chain's
 * cache is forgotten whenever the block this reader last saw at the chain's
 * head is no longer held.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import type { MinerInfo } from "../chain/minerData.ts";
import type { NetworkVersion } from "../chain/networkVersion.ts";
import type { PayloadWithOutputs } from "../chain/payloadWithOutputs.ts";
import type { NamespacePolicy } from "../contract/eval/runtimeContext.ts";
import type { BlockStore } from "../store/blockStore.ts";
import type { ChainRows, StateBlock, StateDb, StoredResult } from "../store/stateDb.ts";
import { CHAIN_NAMESPACE_POLICY } from "./blockEnv.ts";
import { runBlockOn } from "./blockRun.ts";
import { parseBlockTransactionText } from "./blockTransaction.ts";
import { contractInputOf } from "./contractInput.ts";
import { CommandError, commandInvariant } from "./errors.ts";
import type { ExecContext } from "./execContext.ts";
import type { WireCandidate } from "./execProtocol.ts";
import { type LocalAnswer, runLocal } from "./localRun.ts";
import { nodeCommands } from "./nodeCommands.ts";
import { type BuiltPayload, buildPayloadOn, type ReadyCommand } from "./payloadBuilder.ts";
import { ReadyCommands } from "./readyCommands.ts";
import { DEFAULT_COMMAND_TIME_LIMIT_MS } from "./timeLimit.ts";

export type SnapshotExecutorOptions = {
  readonly version: NetworkVersion;
  /** A reader (StateDb.openReader). */
  readonly state: StateDb;
  /** A reader (BlockStore.openReader): headers for SPV proofs. */
  readonly blocks: BlockStore;
  readonly spvProofDepth: number;
  /** Wall-clock limit of one command's evaluation, ms (default {@link DEFAULT_COMMAND_TIME_LIMIT_MS}). */
  readonly commandTimeLimitMs?: number | undefined;
  readonly namespacePolicy?: NamespacePolicy | undefined;
};

/** The state no longer holds the parent: the node moves it back and asks again. */
export const STALE = Symbol("stale");

/** A payload built here, with the candidates it left out by request key. */
export type SnapshotPayload = Omit<BuiltPayload, "dropped"> & {
  readonly dropped: readonly { readonly requestKey: string; readonly error: CommandError }[];
};

/** A block executed on the parent's state: what the node writes for it. */
export type ExecutedBlock = {
  /** The parent's end transaction id, where execution started. */
  readonly baseEndTxId: number;
  readonly rows: ChainRows;
  readonly results: StoredResult[];
  readonly endTxId: number;
};

export class SnapshotExecutor {
  readonly #state: StateDb;
  readonly #ctx: ExecContext;
  /** The head each chain's state had at this reader's last look. */
  readonly #seen = new Map<number, { height: number; hash: string }>();
  /** Candidates parsed here already, by block transaction text. */
  readonly #ready = new ReadyCommands();

  constructor(options: SnapshotExecutorOptions) {
    this.#state = options.state;
    this.#ctx = {
      version: options.version,
      namespacePolicy: options.namespacePolicy ?? CHAIN_NAMESPACE_POLICY,
      spvProofDepth: options.spvProofDepth,
      headers: options.blocks,
      commandTimeLimitMs: options.commandTimeLimitMs ?? DEFAULT_COMMAND_TIME_LIMIT_MS,
    };
  }

  /** The state's block at `parent` in this snapshot, or undefined when it holds another. */
  #held(parent: BlockHeader): StateBlock | undefined {
    const chainId = parent.chainId;
    const state = this.#state;
    const last = this.#seen.get(chainId);
    if (last !== undefined && state.blockAt(chainId, last.height)?.hash !== last.hash) {
      state.forgetDecoded(chainId);
    }
    const head = state.head(chainId);
    if (head === undefined) this.#seen.delete(chainId);
    else this.#seen.set(chainId, { height: head.height, hash: head.hash });
    const held = state.blockAt(chainId, parent.height);
    return held?.hash === parent.hash ? held : undefined;
  }

  /**
   * /local: parses `body` (and checks its signatures when asked), then runs
   * it on the state after `parent`.
   * @throws {CommandError} for a malformed command or bad signatures.
   */
  local(
    parent: BlockHeader,
    body: unknown,
    options: { readonly preflight: boolean; readonly signatureVerification: boolean },
  ): LocalAnswer | typeof STALE {
    const command = nodeCommands.parseCommand(body);
    if (options.signatureVerification) nodeCommands.verifyCommandSignatures(command);
    return this.#state.snapshot(() => {
      const held = this.#held(parent);
      if (held === undefined) return STALE;
      const storage = this.#state.storage(parent.chainId, {
        readLimit: held.endTxId,
        writeHeight: parent.height + 1,
        nextTxId: held.endTxId,
        persist: false,
      });
      return runLocal(this.#ctx, parent, storage, command, options.preflight);
    });
  }

  /**
   * A payload on `parent` (payloadBuilder.ts). A candidate whose text does
   * not parse (never the case for the mempool's) is dropped with its error.
   */
  buildPayload(
    parent: BlockHeader,
    miner: MinerInfo,
    candidates: readonly WireCandidate[],
    blockTimeS: number,
  ): SnapshotPayload | typeof STALE {
    const unreadable: { requestKey: string; error: CommandError }[] = [];
    const ready: ReadyCommand[] = [];
    candidates.forEach((c, i) => {
      const known = this.#ready.get(c.text);
      if (known !== undefined) {
        ready.push(known);
        return;
      }
      const field = `candidates[${i}]`;
      try {
        const command = parseBlockTransactionText(c.text, field);
        const r = { command, input: contractInputOf(command) };
        this.#ready.remember(r);
        ready.push(r);
      } catch (e) {
        const error =
          e instanceof CommandError
            ? e
            : commandInvariant(field, e instanceof Error ? e.message : String(e));
        unreadable.push({ requestKey: c.requestKey, error });
      }
    });
    const chainId = parent.chainId;
    return this.#state.snapshot(() => {
      const held = this.#held(parent);
      if (held === undefined) return STALE;
      const storage = this.#state.storage(chainId, {
        readLimit: held.endTxId,
        writeHeight: parent.height + 1,
        nextTxId: held.endTxId,
        persist: false,
      });
      const built = buildPayloadOn(this.#ctx, parent, miner, ready, blockTimeS, storage, {
        // Results of blocks above the parent (the node moved on) do not count.
        onChain: (key) => this.#state.result(chainId, key, parent.height) !== undefined,
        attempt: (fn) => fn(),
      });
      return {
        payload: built.payload,
        included: built.included,
        dropped: [
          ...unreadable,
          ...built.dropped.map((d) => ({ requestKey: d.command.hash, error: d.error })),
        ],
      };
    });
  }

  /**
   * Executes `header`'s block on the state after `parent` (blockRun.ts),
   * keeping the writes in memory, and returns them.
   * @throws {ExecError} EXEC_BLOCK_INVALID, EXEC_OUTPUT_MISMATCH: the block's verdict.
   */
  executeBlock(
    parent: BlockHeader,
    header: BlockHeader,
    payload: PayloadWithOutputs,
  ): ExecutedBlock | typeof STALE {
    const chainId = parent.chainId;
    return this.#state.snapshot(() => {
      const held = this.#held(parent);
      if (held === undefined) return STALE;
      const storage = this.#state.storage(chainId, {
        readLimit: held.endTxId,
        writeHeight: header.height,
        nextTxId: held.endTxId,
        persist: false,
      });
      const results = runBlockOn(this.#ctx, {
        header,
        payload,
        parent,
        storage,
        // Results of blocks above the parent (the node moved on) do not count.
        onChain: (key) => this.#state.result(chainId, key, parent.height) !== undefined,
        ready: this.#ready,
      });
      return {
        baseEndTxId: held.endTxId,
        rows: storage.committedRows(),
        results,
        endTxId: storage.nextTxId,
      };
    });
  }
}
