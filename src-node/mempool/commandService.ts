/**
 * `CommandService`: what the contract command endpoints do, over the
 * executor (state) and the mempool:
 * - `send`: every command of the batch parsed and checked (wire form,
 *   signatures, node rules at the node's clock, not on chain, gas buyable);
 *   any failure refuses the whole batch naming each failing command's index
 *   and request key; otherwise all go to the mempool (a pending duplicate
 *   changes nothing);
 * - `local`: runs a command without persisting anything (preflight,
 *   signature verification switch, rewind depth), through the execution
 *   host (exec/executionHost.ts: the node's execution workers);
 * - `poll`: results at least `confirmationDepth` blocks deep, unknown keys
 *   left out; `listen`: waits for one result, bounded by a timeout;
 * - `spv`: the cross-chain proof service (exec/spvService.ts), closed with this one;
 * - `private`: reads the command and its private metadata, then refuses it:
 *   what answers when the API has no private service (a node's `/private`
 *   is p2p/private/privateService.ts, docs/private.md);
 * - `payloadFor`: the payload provider of mining (mempool commands, best
 *   first, up to the block gas limit), built through the execution host.
 * It keeps the mempool in step with the chain: commands of blocks that join
 * the best chain leave it; commands of orphaned blocks come back. At start,
 * `restorePending` loads the commands a previous run kept in the mempool's
 * store, checking each again as /send would (expired and already-mined
 * ones are dropped).
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import type { MinerInfo } from "../chain/minerData.ts";
import type { PayloadWithOutputs } from "../chain/payloadWithOutputs.ts";
import type { ParsedCommand } from "../command/commandTypes.ts";
import { RawJson, stringifyJson } from "../command/exactJson.ts";
import { isHashText } from "../encoding/base64url.ts";
import { isNodeError } from "../errors/nodeError.ts";
import { parseBlockTransaction } from "../exec/blockTransaction.ts";
import type { ChainExecutor, ReadyCommand } from "../exec/chainExecutor.ts";
import { contractInputOf } from "../exec/contractInput.ts";
import { CommandError, ExecError, ExecErrorCode } from "../exec/errors.ts";
import { type ExecutionHost, InProcessExecution } from "../exec/executionHost.ts";
import type { LocalAnswer } from "../exec/localRun.ts";
import { nodeCommands } from "../exec/nodeCommands.ts";
import { parsePrivateCommand } from "../exec/parsePrivateCommand.ts";
import { SpvService } from "../exec/spvService.ts";
import type { BlockDb } from "../store/blockDb.ts";
import type { MempoolStore } from "../store/mempoolStore.ts";
import { Mempool } from "./mempool.ts";

/** What {@link CommandService.restorePending} did. */
export type RestoredPending = {
  /** Commands back in the mempool. */
  readonly restored: number;
  /** Commands dropped: unreadable, expired, already on chain, gas not buyable, no room. */
  readonly dropped: number;
};

/** How long /listen waits by default (the reference's 180 s). */
export const DEFAULT_LISTEN_TIMEOUT_MS = 180_000;

export type LocalRequestOptions = {
  readonly preflight: boolean;
  readonly signatureVerification: boolean;
  readonly rewindDepth: number;
};

export type CommandServiceOptions = {
  readonly executor: ChainExecutor;
  readonly blocks: BlockDb;
  readonly mempool?: Mempool | undefined;
  /**
   * Where /local and payload building run (default: in process, on the
   * executor). The node passes its execution workers and closes them itself.
   */
  readonly execution?: ExecutionHost | undefined;
  /** The node's clock, µs since the UNIX epoch (for /send's time window). */
  readonly now?: (() => number) | undefined;
  readonly listenTimeoutMs?: number | undefined;
  /** How long /spv waits for the target chain (default 180 s, exec/spvService.ts). */
  readonly spvTimeoutMs?: number | undefined;
};

type Waiter = { readonly fail: (e: ExecError) => void };

function systemNowMicros(): number {
  return Date.now() * 1000;
}

/** The request key a failing command of a batch is named by. */
function requestKeyOfValue(value: unknown): string | null {
  if (typeof value !== "object" || value === null) return null;
  const o = value as Record<string, unknown>;
  if (isHashText(o.hash)) return o.hash;
  return typeof o.cmd === "string" ? nodeCommands.requestKeyOf(o.cmd) : null;
}

/** The /poll answer of found results (request key → result JSON text). */
export function pollAnswer(found: ReadonlyMap<string, string>): string {
  // Request keys are never array-index-like, so the object keeps the order found.
  return stringifyJson(Object.fromEntries([...found].map(([k, v]) => [k, new RawJson(v)])));
}

export class CommandService {
  readonly executor: ChainExecutor;
  readonly execution: ExecutionHost;
  readonly mempool: Mempool;
  readonly blocks: BlockDb;
  readonly listenTimeoutMs: number;
  /** `/spv`: proofs of command outputs for other chains. */
  readonly spv: SpvService;
  readonly #now: () => number;
  readonly #waiters = new Set<Waiter>();
  readonly #unsubscribe: (() => void)[];
  #closed = false;

  constructor(options: CommandServiceOptions) {
    this.executor = options.executor;
    this.execution = options.execution ?? new InProcessExecution(options.executor);
    this.blocks = options.blocks;
    this.mempool = options.mempool ?? new Mempool();
    this.listenTimeoutMs = options.listenTimeoutMs ?? DEFAULT_LISTEN_TIMEOUT_MS;
    this.spv = new SpvService({
      executor: this.executor,
      blocks: this.blocks,
      timeoutMs: options.spvTimeoutMs,
    });
    this.#now = options.now ?? systemNowMicros;
    this.#unsubscribe = [
      this.blocks.onCutChange(({ added }) => {
        for (const h of added) this.#removeIncluded(h);
      }),
      this.executor.onOrphaned((chainId, commands) => this.#takeBack(chainId, commands)),
    ];
  }

  close(): void {
    this.#closed = true;
    this.spv.close();
    for (const u of this.#unsubscribe) u();
    const err = new ExecError(
      { code: ExecErrorCode.ShuttingDown },
      "the node is shutting down; poll again once it is back",
    );
    for (const w of [...this.#waiters]) w.fail(err);
    this.#waiters.clear();
  }

  #removeIncluded(h: BlockHeader): void {
    if (this.mempool.size(h.chainId) === 0) return;
    const p = this.blocks.payload(h.payloadHash);
    const keys: string[] = [];
    for (const [i, t] of (p?.transactions ?? []).entries()) {
      try {
        keys.push(parseBlockTransaction(t.transaction, `transactions[${i}]`).hash);
      } catch (e) {
        if (!isNodeError(e)) throw e;
      }
    }
    this.mempool.remove(h.chainId, keys);
  }

  /** Commands of orphaned blocks: back to the mempool (building a block checks them again). */
  #takeBack(chainId: number, commands: readonly ParsedCommand[]): void {
    // No state reads here: this runs while the executor moves the state.
    const ready: ReadyCommand[] = [];
    for (const command of commands) {
      try {
        ready.push({ command, input: contractInputOf(command) });
      } catch (e) {
        if (!isNodeError(e)) throw e;
      }
    }
    try {
      this.mempool.add(chainId, ready);
    } catch (e) {
      if (!isNodeError(e)) throw e;
    }
  }

  /**
   * Loads the commands `store` kept (a previous run's mempool) in arrival
   * order, each parsed and checked again at the node's clock as /send
   * checks it; the ones that fail (expired, on chain by now, gas no longer
   * buyable, unreadable, no room) are deleted from the store. Call once the
   * executor holds the best cut, before serving.
   */
  restorePending(store: MempoolStore): RestoredPending {
    const nowS = Math.floor(this.#now() / 1_000_000);
    let restored = 0;
    const dropped = new Map<number, string[]>();
    const drop = (chainId: number, key: string): void => {
      const list = dropped.get(chainId) ?? [];
      list.push(key);
      dropped.set(chainId, list);
    };
    for (const row of store.all()) {
      let ok = false;
      try {
        this.blocks.requireChain(row.chainId);
        const parsed = nodeCommands.parseCommand(JSON.parse(row.command), "pending");
        const r = this.executor.checkSubmission(row.chainId, parsed, nowS);
        if (r.ok && parsed.hash === row.requestKey) {
          this.mempool.add(row.chainId, [r.value]);
          ok = true;
        }
      } catch (e) {
        if (!isNodeError(e) && !(e instanceof SyntaxError)) throw e;
      }
      if (ok) restored++;
      else drop(row.chainId, row.requestKey);
    }
    let count = 0;
    for (const [chainId, keys] of dropped) {
      store.remove(chainId, keys);
      count += keys.length;
    }
    return { restored, dropped: count };
  }

  /**
   * /send: checks every command; all or nothing.
   * @returns the request keys, one per command, in order.
   * @throws {ExecError} EXEC_BATCH_INVALID naming each failing command.
   * @throws {MempoolError} MEMPOOL_FULL.
   */
  send(chainId: number, cmds: readonly unknown[]): string[] {
    this.blocks.requireChain(chainId);
    const nowS = Math.floor(this.#now() / 1_000_000);
    const failures: { index: number; requestKey: string | null; error: CommandError }[] = [];
    const ready: ReadyCommand[] = [];
    cmds.forEach((value, index) => {
      const prefix = `cmds[${index}]`;
      let parsed: ParsedCommand;
      try {
        parsed = nodeCommands.parseCommand(value, prefix);
      } catch (e) {
        if (!(e instanceof CommandError)) throw e;
        failures.push({ index, requestKey: requestKeyOfValue(value), error: e });
        return;
      }
      const r = this.executor.checkSubmission(chainId, parsed, nowS, `${prefix}.`);
      if (r.ok) ready.push(r.value);
      else for (const error of r.error) failures.push({ index, requestKey: parsed.hash, error });
    });
    if (failures.length > 0) {
      const lines = failures.map((f) => {
        const prefix = `cmds[${f.index}].`;
        const reason = f.error.message.startsWith(prefix)
          ? f.error.message.slice(prefix.length)
          : f.error.message;
        const key = f.requestKey === null ? "unknown" : JSON.stringify(f.requestKey);
        return `cmds[${f.index}] (request key ${key}): ${reason}`;
      });
      throw new ExecError(
        { code: ExecErrorCode.BatchInvalid, failures },
        `One or more transactions were invalid (none was accepted): ${lines.join("; ")}`,
      );
    }
    this.mempool.add(chainId, ready);
    return ready.map((r) => r.command.hash);
  }

  /**
   * /local: the command result (or preflight result) as JSON text.
   * @throws {CommandError} for a malformed command or (unless switched off) bad signatures.
   * @throws {ExecError} EXEC_PREFLIGHT_INVALID with every metadata rule broken.
   */
  async local(chainId: number, body: unknown, options: LocalRequestOptions): Promise<string> {
    return this.localNowOrLater(chainId, body, options);
  }

  /**
   * {@link local}, answered without a promise when the command runs on the
   * node's thread (`ExecutionHost.localNowOrLater`), so the route answers it
   * in the same turn; a promise when it runs in a worker.
   * @throws {CommandError} {@link local}'s errors, at once when found on this thread.
   */
  localNowOrLater(
    chainId: number,
    body: unknown,
    options: LocalRequestOptions,
  ): string | Promise<string> {
    this.blocks.requireChain(chainId);
    const answer = this.execution.localNowOrLater(chainId, body, options);
    return answer instanceof Promise
      ? answer.then((a) => localAnswerText(a, options))
      : localAnswerText(answer, options);
  }

  /** /poll: `{requestKey: result, …}` for the keys found at least `confirmationDepth` deep. */
  poll(chainId: number, requestKeys: readonly string[], confirmationDepth: number): string {
    return pollAnswer(this.executor.poll(chainId, requestKeys, confirmationDepth));
  }

  /**
   * /listen: the result of `requestKey` once a block of the best chain has it.
   * @param signal aborts the wait (the client went away).
   * @throws {ExecError} EXEC_LISTEN_TIMEOUT after the timeout, EXEC_SHUTTING_DOWN on close.
   */
  listen(chainId: number, requestKey: string, signal?: AbortSignal): Promise<string> {
    const lookup = (): string | undefined =>
      this.executor.poll(chainId, [requestKey], 0).get(requestKey);
    const now = lookup();
    if (now !== undefined) return Promise.resolve(now);
    if (this.#closed) {
      return Promise.reject(
        new ExecError({ code: ExecErrorCode.ShuttingDown }, "the node is shutting down"),
      );
    }
    return new Promise<string>((resolve, reject) => {
      const timeoutMs = this.listenTimeoutMs;
      const done = (): void => {
        clearTimeout(timer);
        unsubscribe();
        this.#waiters.delete(waiter);
        signal?.removeEventListener("abort", onAbort);
      };
      const waiter: Waiter = {
        fail: (e) => {
          done();
          reject(e);
        },
      };
      const onAbort = (): void => {
        done();
        reject(new ExecError({ code: ExecErrorCode.ShuttingDown }, "the client went away"));
      };
      const unsubscribe = this.blocks.onCutChange(({ added }) => {
        if (!added.some((h) => h.chainId === chainId)) return;
        const r = lookup();
        if (r === undefined) return;
        done();
        resolve(r);
      });
      const timer = setTimeout(() => {
        waiter.fail(
          new ExecError(
            { code: ExecErrorCode.ListenTimeout, requestKey, timeoutMs },
            `no result for ${requestKey} on chain ${chainId} after ${timeoutMs / 1000} s; the command may still be pending: listen or poll again`,
          ),
        );
      }, timeoutMs);
      this.#waiters.add(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /**
   * /private: reads the command, then refuses it (no peer to send it to).
   * @throws {CommandError} for a malformed command or metadata that is not private.
   * @throws {ExecError} EXEC_PRIVATE_NEEDS_PEER otherwise.
   */
  private(chainId: number, body: unknown): never {
    this.blocks.requireChain(chainId);
    const p = parsePrivateCommand(body);
    throw new ExecError(
      { code: ExecErrorCode.PrivateNeedsPeer, field: "cmd.meta.address.to" },
      `private execution needs an addressed peer: this node is connected to no other node, so it cannot deliver ${p.hash} to ${p.address.to.join(", ")}`,
    );
  }

  /**
   * The mining payload provider: mempool commands of `chainId` on top of
   * `parent`, built by the execution host. It first lets the event loop run
   * (signals, HTTP, the node's other work): with an easy target a miner asks
   * for work back to back, and building in process is synchronous work.
   */
  payloadFor = async (
    chainId: number,
    parent: BlockHeader,
    miner: MinerInfo,
  ): Promise<PayloadWithOutputs> => {
    if (parent.chainId !== chainId) {
      throw new ExecError(
        { code: ExecErrorCode.Invariant, reason: "parent on another chain" },
        `payload for chain ${chainId} asked on a parent of chain ${parent.chainId}`,
      );
    }
    // The header's creation time is the clock read just before this call (mining/miningService.ts);
    // one second less bounds it safely.
    const blockTimeS = Math.floor(this.#now() / 1_000_000) - 1;
    await new Promise<void>((resolve) => setImmediate(resolve));
    const built = await this.execution.buildPayload(
      parent,
      miner,
      this.mempool.candidates(chainId),
      blockTimeS,
    );
    this.mempool.remove(
      chainId,
      built.dropped.map((d) => d.command.hash),
    );
    return built.payload;
  };
}

/** /local's answer as JSON text (the result, or the preflight's wrapping of it). */
function localAnswerText(answer: LocalAnswer, options: LocalRequestOptions): string {
  if (answer.kind === "invalid") {
    throw new ExecError(
      { code: ExecErrorCode.PreflightInvalid, failures: answer.failures },
      `Metadata validation failed: ${JSON.stringify(answer.failures.map((f) => f.message))}`,
    );
  }
  if (!options.preflight) return answer.output;
  return stringifyJson({ preflightResult: new RawJson(answer.output), preflightWarnings: [] });
}
