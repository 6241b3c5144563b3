/**
 * `ChainExecutor`: executes blocks against state.sqlite and keeps the state
 * of every chain on that chain's block of the best cut.
 *
 * - Validation (the BlockDb hook, `executeBlock`): the block runs on its
 *   parent's state (the state is first moved there: rewound to the fork
 *   point and the parent's branch re-executed), in one SQLite transaction:
 *   coinbase, then each command (parsed, signatures, rules at the parent's
 *   time, not on chain already, gas bought, run, gas redeemed). Any command
 *   that breaks a rule, or an output that differs from the payload's, rejects
 *   the block and rolls the transaction back.
 * - Following the best cut: on every cut change, each chain's state is
 *   moved to the new head (rewind to the fork point, re-execute the branch);
 *   results of orphaned blocks disappear from the results index with their
 *   state, and their commands are offered back (`onOrphaned`).
 * - Building payloads for mining (`buildPayload`): the same code, in a
 *   transaction that is rolled back; commands that cannot be applied are
 *   left out and reported.
 * - /local, /poll and /send checks read the state at the best head (or n
 *   blocks below it).
 *
 * Execution reads no clock: block time is the parent's creation time.
 * Cross-chain proofs are checked against the parent's history
 * (spvVerifier.ts), so validation stays deterministic.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import type { MinerInfo } from "../chain/minerData.ts";
import { genesisHeightOf, type NetworkVersion } from "../chain/networkVersion.ts";
import type { ParsedCommand } from "../command/commandTypes.ts";
import type { NamespacePolicy } from "../contract/eval/runtimeContext.ts";
import type { ContractStorage } from "../contract/storage/contractStorage.ts";
import { isNodeError } from "../errors/nodeError.ts";
import type { Result } from "../errors/result.ts";
import type { Block, BlockDb, BlockExecutor, CutChange } from "../store/blockDb.ts";
import type { SqliteContractStorage } from "../store/sqliteContractStorage.ts";
import {
  type ChainRows,
  NO_TXID_LIMIT,
  type StateDb,
  type StoredResult,
} from "../store/stateDb.ts";
import { type BlockEnv, CHAIN_NAMESPACE_POLICY } from "./blockEnv.ts";
import { runBlockOn } from "./blockRun.ts";
import { parseBlockTransaction } from "./blockTransaction.ts";
import { readCommandResult, writeCommandResult } from "./commandResult.ts";
import { commandRuleViolations } from "./commandRules.ts";
import { type ContractInput, contractInputOf } from "./contractInput.ts";
import {
  CommandError,
  CommandErrorCode,
  ExecError,
  ExecErrorCode,
  execInvariant,
} from "./errors.ts";
import { blockEnvOf, type ExecContext } from "./execContext.ts";
import { decimalOfText, gasAmount } from "./gasMath.ts";
import { gasPayerOf } from "./gasPayer.ts";
import { type LocalAnswer, runLocal } from "./localRun.ts";
import { nodeCommands } from "./nodeCommands.ts";
import {
  type BuiltPayload,
  buildPayloadOn,
  duplicateCommand,
  type ReadyCommand,
} from "./payloadBuilder.ts";
import { ReadyCommands } from "./readyCommands.ts";
import { DEFAULT_SPV_PROOF_DEPTH } from "./spvVerifier.ts";
import { buyGas } from "./systemCalls.ts";
import { DEFAULT_COMMAND_TIME_LIMIT_MS } from "./timeLimit.ts";

/** Runs a chain's genesis transactions on a storage at the genesis height. */
export type GenesisRunner = (chainId: number, storage: ContractStorage) => void;

export type ExecutorLog = {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
};

export type ChainExecutorOptions = {
  readonly version: NetworkVersion;
  readonly blocks: BlockDb;
  readonly state: StateDb;
  /** Default: none (a genesis without transactions). */
  readonly genesis?: GenesisRunner | undefined;
  /**
   * Names what `genesis` produces (equal keys: equal state for equal genesis
   * blocks). With a key, a chain's genesis state is computed once per process
   * and copied afterwards (opening a fresh node is then cheap).
   */
  readonly genesisKey?: string | undefined;
  /** Default: {@link CHAIN_NAMESPACE_POLICY}. */
  readonly namespacePolicy?: NamespacePolicy | undefined;
  readonly log?: ExecutorLog | undefined;
  /**
   * Wall-clock limit of one command's evaluation while building a payload or
   * answering /local (default {@link DEFAULT_COMMAND_TIME_LIMIT_MS}); never
   * applied to block validation (exec/timeLimit.ts).
   */
  readonly commandTimeLimitMs?: number | undefined;
  /**
   * How many blocks below the parent of the executing block an SPV proof's
   * root may be (default {@link DEFAULT_SPV_PROOF_DEPTH}, the reference's 20,000).
   */
  readonly spvProofDepth?: number | undefined;
};

/**
 * A block executed on a read snapshot of its parent's state (an execution
 * worker): the verdict, and for a valid block the rows, results and end id
 * its execution gave from `baseEndTxId`, the parent's end id.
 */
export type PreparedBlock = { readonly payloadHash: string } & (
  | {
      readonly ok: true;
      readonly baseEndTxId: number;
      readonly rows: ChainRows;
      readonly results: readonly StoredResult[];
      readonly endTxId: number;
    }
  | { readonly ok: false; readonly error: ExecError }
);

/** Prepared blocks kept at most (a miner's solution is inserted right after). */
const MAX_PREPARED = 64;

/** Genesis states computed in this process, by genesis key, chain and genesis hash. */
const genesisStates = new Map<string, { rows: ChainRows; endTxId: number }>();

export type { LocalAnswer } from "./localRun.ts";
export { PREFLIGHT_MINER } from "./localRun.ts";
export type { BuiltPayload, ReadyCommand } from "./payloadBuilder.ts";

export type LocalOptions = {
  readonly preflight: boolean;
  /** Blocks below the best head to run on (clamped at genesis). */
  readonly rewindDepth: number;
};

export class ChainExecutor implements BlockExecutor {
  readonly version: NetworkVersion;
  readonly blocks: BlockDb;
  readonly state: StateDb;
  readonly #genesis: GenesisRunner | undefined;
  readonly #genesisKey: string | undefined;
  readonly #policy: NamespacePolicy;
  readonly #log: ExecutorLog | undefined;
  /** Wall-clock limit of one command's evaluation in payload building and /local (ms). */
  readonly commandTimeLimitMs: number;
  readonly spvProofDepth: number;
  readonly #orphanListeners = new Set<(chainId: number, commands: ParsedCommand[]) => void>();
  readonly #unsubscribe: () => void;
  /** Commands parsed here already, for validating the blocks that hold them. */
  readonly #ready = new ReadyCommands();
  /** Blocks executed elsewhere, by hash, waiting for their insert (offerPrepared). */
  readonly #prepared = new Map<string, PreparedBlock>();

  private constructor(options: ChainExecutorOptions) {
    this.version = options.version;
    this.blocks = options.blocks;
    this.state = options.state;
    this.#genesis = options.genesis;
    this.#genesisKey = options.genesisKey;
    this.#policy = options.namespacePolicy ?? CHAIN_NAMESPACE_POLICY;
    this.#log = options.log;
    this.commandTimeLimitMs = options.commandTimeLimitMs ?? DEFAULT_COMMAND_TIME_LIMIT_MS;
    this.spvProofDepth = options.spvProofDepth ?? DEFAULT_SPV_PROOF_DEPTH;
    this.#unsubscribe = this.blocks.onCutChange((change) => this.#followCut(change));
  }

  /**
   * Opens the executor: runs the genesis of every chain whose state lacks
   * it, then brings every chain's state to the best cut (re-executing what
   * a crash or a deleted state.sqlite left out), and registers itself as the
   * block database's executor.
   */
  static open(options: ChainExecutorOptions): ChainExecutor {
    const x = new ChainExecutor(options);
    try {
      for (const chainId of x.version.chainIds) x.#ensureGenesis(chainId);
      for (const head of x.blocks.cut().values()) x.syncTo(head);
      x.blocks.setExecutor(x);
    } catch (e) {
      x.close();
      throw e;
    }
    return x;
  }

  close(): void {
    this.#unsubscribe();
    this.#orphanListeners.clear();
    if (this.blocks.isOpen) this.blocks.setExecutor(undefined);
  }

  /** Commands of blocks that left the best chain (for the mempool to take back). */
  onOrphaned(listener: (chainId: number, commands: ParsedCommand[]) => void): () => void {
    this.#orphanListeners.add(listener);
    return () => {
      this.#orphanListeners.delete(listener);
    };
  }

  // ---- genesis and following the cut

  /** Runs the genesis of `chainId` unless the state holds it (`restart`: runs it anyway). */
  #ensureGenesis(chainId: number, restart = false): void {
    const genesis = this.blocks.genesis.get(chainId);
    if (genesis === undefined) throw execInvariant(`no genesis header for chain ${chainId}`);
    const held = this.state.blockAt(chainId, genesis.height);
    if (!restart && held !== undefined && held.hash === genesis.hash) return;
    const cacheKey =
      this.#genesisKey === undefined
        ? undefined
        : `${this.#genesisKey}\u0000${chainId}\u0000${genesis.hash}`;
    const cached = cacheKey === undefined ? undefined : genesisStates.get(cacheKey);
    this.state.transaction(() => {
      this.state.resetChain(chainId);
      const storage = this.state.storage(chainId, {
        readLimit: NO_TXID_LIMIT,
        writeHeight: genesis.height,
        nextTxId: 0,
      });
      try {
        if (cached !== undefined) {
          this.state.insertChainRows(chainId, cached.rows);
          storage.resetNextTxId(cached.endTxId);
        } else {
          this.#genesis?.(chainId, storage);
          if (cacheKey !== undefined) {
            genesisStates.set(cacheKey, {
              rows: this.state.chainRows(chainId),
              endTxId: storage.nextTxId,
            });
          }
        }
      } catch (e) {
        if (!isNodeError(e)) throw e;
        throw new ExecError(
          { code: ExecErrorCode.GenesisFailed, chainId, reason: e.message },
          `the genesis of chain ${chainId} failed: ${e.message}`,
          { cause: e },
        );
      }
      const payload = this.blocks.payload(genesis.payloadHash);
      payload?.transactions.forEach((t, position) => {
        let command: ParsedCommand;
        try {
          command = parseBlockTransaction(t.transaction, `genesis.transactions[${position}]`);
        } catch {
          return; // not a command (nothing to poll for)
        }
        this.state.insertResult(chainId, {
          requestKey: command.hash,
          height: genesis.height,
          blockHash: genesis.hash,
          position,
          output: new TextDecoder().decode(t.output),
        });
      });
      this.state.recordBlock({
        chainId,
        height: genesis.height,
        hash: genesis.hash,
        endTxId: storage.nextTxId,
      });
    });
  }

  #followCut(change: CutChange): void {
    const chains = new Set(change.added.map((h) => h.chainId));
    for (const chainId of chains) {
      const head = change.cut.get(chainId);
      if (head !== undefined) this.syncTo(head);
    }
  }

  /** The best cut's head of `chainId`, with the state moved there. */
  bestHead(chainId: number): BlockHeader {
    this.blocks.requireChain(chainId);
    const head = this.blocks.cut().get(chainId) ?? this.blocks.genesis.get(chainId);
    if (head === undefined) throw execInvariant(`chain ${chainId} has no head`);
    this.syncTo(head);
    return head;
  }

  #parentOf(h: BlockHeader): BlockHeader {
    const p = this.blocks.header(h.parent);
    if (p === undefined) throw execInvariant(`the parent of ${h.hash} is not stored`);
    return p;
  }

  /**
   * Moves the state of `target`'s chain to `target`: rewinds to the fork
   * point with the state's branch and re-executes `target`'s branch from
   * there (each block in its own transaction).
   */
  syncTo(target: BlockHeader): void {
    const chainId = target.chainId;
    const head = this.state.head(chainId);
    if (head?.hash === target.hash) return;
    const genesisHeight = genesisHeightOf(this.version, chainId);
    const path: BlockHeader[] = [];
    let x = target;
    const headHeight = head?.height ?? genesisHeight;
    while (x.height > headHeight) {
      path.push(x);
      x = this.#parentOf(x);
    }
    while (this.state.blockAt(chainId, x.height)?.hash !== x.hash) {
      if (x.height <= genesisHeight) {
        // No common block, not even genesis: start the chain's state again.
        this.#ensureGenesis(chainId);
        break;
      }
      path.push(x);
      x = this.#parentOf(x);
    }
    const orphaned = this.#commandsAbove(chainId, x.height);
    const compaction = this.state.compaction(chainId);
    if (compaction !== undefined && x.height < compaction.horizonHeight) {
      // The fork point lies below the compaction horizon, where the state is
      // no longer exact: the chain's state starts again from its genesis.
      this.#log?.warn("a fork below the state's compaction horizon: re-executing from genesis", {
        chainId,
        forkHeight: x.height,
        horizonHeight: compaction.horizonHeight,
      });
      while (x.height > genesisHeight) {
        path.push(x);
        x = this.#parentOf(x);
      }
      this.#ensureGenesis(chainId, true);
    } else {
      this.state.transaction(() => this.state.rewind(chainId, x.height));
    }
    for (const b of path.reverse()) this.#replay(b);
    if (orphaned.length > 0) {
      const back = orphaned.filter((c) => !this.state.hasResult(chainId, c.hash));
      if (back.length > 0) for (const l of this.#orphanListeners) l(chainId, back);
    }
  }

  /** The commands of the blocks the state holds above `height` (about to be rewound). */
  #commandsAbove(chainId: number, height: number): ParsedCommand[] {
    if (this.#orphanListeners.size === 0) return [];
    const out: ParsedCommand[] = [];
    const head = this.state.head(chainId);
    if (head === undefined || head.height <= height) return out;
    for (const b of this.state.blocksDescending(chainId, head.height - height)) {
      if (b.height <= height) break;
      const h = this.blocks.header(b.hash);
      const p = h === undefined ? undefined : this.blocks.payload(h.payloadHash);
      for (const [i, t] of (p?.transactions ?? []).entries()) {
        try {
          out.push(parseBlockTransaction(t.transaction, `transactions[${i}]`));
        } catch (e) {
          if (!isNodeError(e)) throw e;
          // A stored block's commands parse; one that does not is no command to offer back.
        }
      }
    }
    return out;
  }

  #replay(header: BlockHeader): void {
    const payload = this.blocks.payload(header.payloadHash);
    if (payload === undefined) throw execInvariant(`no payload for stored block ${header.hash}`);
    try {
      this.#apply({ header, payload });
    } catch (e) {
      if (e instanceof ExecError) {
        this.#log?.error("re-executing a stored block gave other outputs", {
          chainId: header.chainId,
          height: header.height,
          hash: header.hash,
          error: e.message,
        });
        throw new ExecError(
          {
            code: ExecErrorCode.ReplayMismatch,
            blockHash: header.hash,
            chainId: header.chainId,
            height: header.height,
          },
          `re-executing block ${header.hash} (chain ${header.chainId}, height ${header.height}) did not give its stored outputs: ${e.message}`,
          { cause: e },
        );
      }
      throw e;
    }
  }

  // ---- blocks

  /**
   * BlockDb hook: executes `block` on its parent's state; throws to reject
   * it. A block an execution worker executed already ({@link offerPrepared})
   * is not executed again: its verdict is taken, and its rows are written
   * when the state still stands where the worker read it.
   */
  executeBlock(block: Block): void {
    const parent = this.#parentOf(block.header);
    this.syncTo(parent);
    const prepared = this.#prepared.get(block.header.hash);
    if (prepared !== undefined && prepared.payloadHash === block.payload.payloadHash) {
      this.#prepared.delete(block.header.hash);
      if (!prepared.ok) throw prepared.error;
      const base = this.state.head(block.header.chainId);
      if (base?.hash === parent.hash && base.endTxId === prepared.baseEndTxId) {
        this.#write(block.header, prepared);
        return;
      }
    }
    this.#apply(block);
  }

  /**
   * Hands over the outcome of executing a block elsewhere (an execution
   * worker, on a read snapshot of the parent's state), for
   * {@link executeBlock} to use instead of executing it. Kept until the
   * block is inserted or {@link dropPrepared}; at most a few are kept.
   */
  offerPrepared(hash: string, prepared: PreparedBlock): void {
    if (this.#prepared.size >= MAX_PREPARED) {
      this.#prepared.delete(this.#prepared.keys().next().value as string);
    }
    this.#prepared.set(hash, prepared);
  }

  dropPrepared(hash: string): void {
    this.#prepared.delete(hash);
  }

  /** Writes a prepared block's rows and results as {@link #apply} would have. */
  #write(header: BlockHeader, prepared: PreparedBlock & { ok: true }): void {
    const chainId = header.chainId;
    this.state.transaction(() => {
      this.state.insertChainRows(chainId, prepared.rows);
      for (const r of prepared.results) this.state.insertResult(chainId, r);
      this.state.recordBlock({
        chainId,
        height: header.height,
        hash: header.hash,
        endTxId: prepared.endTxId,
      });
    });
  }

  /** What execution needs besides the state (the same for an execution worker). */
  get context(): ExecContext {
    return {
      version: this.version,
      namespacePolicy: this.#policy,
      spvProofDepth: this.spvProofDepth,
      headers: this.blocks,
      commandTimeLimitMs: this.commandTimeLimitMs,
    };
  }

  /** The environment of a block on `parent` (proofs are checked against its history). */
  #env(chainId: number, parent: BlockHeader, storage: ContractStorage): BlockEnv {
    return blockEnvOf(this.context, chainId, parent, storage);
  }

  /** Executes a block on the state at its parent (the caller moved it there). */
  #apply(block: Block): void {
    const { header, payload } = block;
    const chainId = header.chainId;
    this.state.transaction(() => {
      const base = this.state.head(chainId);
      if (base === undefined || base.hash !== header.parent) {
        throw execInvariant(`the state of chain ${chainId} is not at the parent of ${header.hash}`);
      }
      const storage = this.state.storage(chainId, {
        readLimit: NO_TXID_LIMIT,
        writeHeight: header.height,
        nextTxId: base.endTxId,
      });
      const results = runBlockOn(this.context, {
        header,
        payload,
        parent: this.#parentOf(header),
        storage,
        onChain: (requestKey) => this.state.hasResult(chainId, requestKey),
        ready: this.#ready,
      });
      for (const r of results) this.state.insertResult(chainId, r);
      this.state.recordBlock({
        chainId,
        height: header.height,
        hash: header.hash,
        endTxId: storage.nextTxId,
      });
    });
  }

  /**
   * The payload of a new block on `parent` for `miner` (payloadBuilder.ts),
   * built in a SQLite transaction that is rolled back. The commands it
   * includes are remembered for validating the block.
   */
  buildPayload(
    parent: BlockHeader,
    miner: MinerInfo,
    candidates: readonly ReadyCommand[],
    blockTimeS: number,
  ): BuiltPayload {
    const chainId = parent.chainId;
    this.syncTo(parent);
    const built = this.state.rolledBack(() => {
      const base = this.state.head(chainId);
      if (base === undefined) throw execInvariant(`no state for chain ${chainId}`);
      const storage = this.state.storage(chainId, {
        readLimit: NO_TXID_LIMIT,
        writeHeight: parent.height + 1,
        nextTxId: base.endTxId,
      });
      return buildPayloadOn(this.context, parent, miner, candidates, blockTimeS, storage, {
        onChain: (requestKey) => this.state.hasResult(chainId, requestKey),
        attempt: (fn) => this.state.attempt(fn),
        warn: (message, fields) => this.#log?.warn(message, fields),
      });
    });
    this.rememberIncluded(built, candidates);
    return built;
  }

  /**
   * Remembers the candidates a payload includes (parsed, with inputs), so
   * that validating its block parses nothing again.
   */
  rememberIncluded(
    built: Pick<BuiltPayload, "included">,
    candidates: readonly ReadyCommand[],
  ): void {
    const keys = new Set(built.included.map((c) => c.hash));
    for (const c of candidates) if (keys.has(c.command.hash)) this.#ready.remember(c);
  }

  /**
   * Moves the state to `parent` and returns it, for execution elsewhere
   * (an execution worker reads the state at `parent` from its own connection).
   */
  stateAt(parent: BlockHeader): BlockHeader {
    this.syncTo(parent);
    return parent;
  }

  // ---- queries

  /** True when a block of the best chain of `chainId` has a command with this request key. */
  isOnChain(chainId: number, requestKey: string): boolean {
    this.bestHead(chainId);
    return this.state.hasResult(chainId, requestKey);
  }

  /**
   * The results of `requestKeys` in blocks at least `confirmationDepth`
   * below the best head (0: the head itself counts), as JSON texts with
   * `metaData` = `{blockHeight, blockTime, blockHash, prevBlockHash}`.
   * Unknown keys are left out.
   */
  poll(
    chainId: number,
    requestKeys: readonly string[],
    confirmationDepth: number,
  ): Map<string, string> {
    const head = this.bestHead(chainId);
    const maxHeight = head.height - confirmationDepth;
    const out = new Map<string, string>();
    for (const key of requestKeys) {
      if (out.has(key)) continue;
      const r = this.state.result(chainId, key, maxHeight);
      if (r === undefined) continue;
      const h = this.blocks.header(r.blockHash);
      if (h === undefined) continue;
      out.set(
        key,
        writeCommandResult({
          ...readCommandResult(r.output),
          metaData: {
            blockHeight: h.height,
            blockTime: h.creationTime,
            blockHash: h.hash,
            prevBlockHash: h.parent,
          },
        }),
      );
    }
    return out;
  }

  /**
   * The block `rewindDepth` blocks below the best head of `chainId`
   * (clamped at genesis), with the state holding it: what /local runs on.
   */
  localParent(chainId: number, rewindDepth: number): BlockHeader {
    const head = this.bestHead(chainId);
    const genesisHeight = genesisHeightOf(this.version, chainId);
    const height = Math.max(genesisHeight, head.height - rewindDepth);
    // The head itself is never below the horizon (rewinding under it is refused), so only a
    // deeper view reads it: the read was a SQLite statement on every /local (~30 µs of ~200).
    const compaction = height < head.height ? this.state.compaction(chainId) : undefined;
    if (compaction !== undefined && height < compaction.horizonHeight) {
      throw new ExecError(
        {
          code: ExecErrorCode.StatePruned,
          chainId,
          height,
          horizonHeight: compaction.horizonHeight,
        },
        `rewindDepth: the state of chain ${chainId} at height ${height} is no longer kept (this node keeps it from height ${compaction.horizonHeight}, ${head.height - compaction.horizonHeight} blocks below the head; an archive node keeps all)`,
      );
    }
    const parent = this.blocks.ancestorAt(head, height);
    const held = this.state.blockAt(chainId, height);
    if (parent === undefined || held === undefined || held.hash !== parent.hash) {
      throw execInvariant(`the state of chain ${chainId} does not hold height ${height}`);
    }
    return parent;
  }

  /** The state view `rewindDepth` blocks below the best head of `chainId`. */
  #localView(
    chainId: number,
    rewindDepth: number,
  ): { parent: BlockHeader; storage: SqliteContractStorage } {
    const parent = this.localParent(chainId, rewindDepth);
    const held = this.state.blockAt(chainId, parent.height);
    if (held === undefined) throw execInvariant(`the state of chain ${chainId} moved`);
    const storage = this.state.storage(chainId, {
      readLimit: held.endTxId,
      writeHeight: parent.height + 1,
      nextTxId: held.endTxId,
      persist: false,
    });
    return { parent, storage };
  }

  /**
   * /local: runs `command` on the state `rewindDepth` blocks below the best
   * head, persisting nothing. With `preflight`, the metadata rules are
   * checked first (all failures reported) and gas is bought and redeemed;
   * without, the gas limit must still be within the block gas limit.
   * @throws {CommandError} CMD_BAD_FIELD for data the contract language has no value for,
   *   CMD_GAS_LIMIT (without preflight) for a gas limit outside 1 … the block gas limit.
   */
  local(chainId: number, command: ParsedCommand, options: LocalOptions): LocalAnswer {
    const { parent, storage } = this.#localView(chainId, options.rewindDepth);
    return runLocal(this.context, parent, storage, command, options.preflight);
  }

  /**
   * Everything /send checks of one command besides its wire form: rules at
   * the node's clock `nowS`, signatures, not on chain, contract data, and
   * that the sender can buy its gas now.
   * @param prefix names the command in errors, e.g. `"cmds[2]."`.
   * @returns the command ready for the mempool, or every problem found.
   */
  checkSubmission(
    chainId: number,
    command: ParsedCommand,
    nowS: number,
    prefix = "",
  ): Result<ReadyCommand, CommandError[]> {
    const errors = commandRuleViolations(
      command,
      { version: this.version, chainId, time: { kind: "submit", nowS } },
      prefix,
    );
    try {
      nodeCommands.verifyCommandSignatures(command, prefix);
    } catch (e) {
      if (!(e instanceof CommandError)) throw e;
      errors.push(e);
    }
    if (this.isOnChain(chainId, command.hash))
      errors.push(duplicateCommand(command.hash, prefix, "chain"));
    let input: ContractInput | undefined;
    try {
      input = contractInputOf(command, prefix);
    } catch (e) {
      if (!(e instanceof CommandError)) throw e;
      errors.push(e);
    }
    if (errors.length > 0 || input === undefined) return { ok: false, error: errors };
    const { parent, storage } = this.#localView(chainId, 0);
    const env = this.#env(chainId, parent, storage);
    const meta = command.payload.meta;
    const total = gasAmount(meta.gasLimit, decimalOfText(meta.gasPrice));
    const bought = buyGas(env, meta, input.signers, total, command.hash, gasPayerOf(input));
    if (!bought.result.ok) {
      const field = `${prefix}cmd.meta.sender`;
      const reason = bought.result.error.message;
      return {
        ok: false,
        error: [
          new CommandError(
            { code: CommandErrorCode.BuyGasFailed, field, reason },
            `${field}: buying gas from ${JSON.stringify(meta.sender)} failed: ${reason}`,
          ),
        ],
      };
    }
    const ready = { command, input };
    this.#ready.remember(ready);
    return { ok: true, value: ready };
  }
}
