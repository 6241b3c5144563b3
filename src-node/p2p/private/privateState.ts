/**
 * The private state of this node's entity (docs/private.md "Private
 * state"): `dataDir/<network>/private/<entity>.sqlite`, a state database of
 * its own (store/stateDb.ts, the same versioned rows as the public chains'
 * state.sqlite) that no public block reads or writes. Each private command
 * this node runs is one step of the private state of its chain: executed on
 * the state the previous one left (empty at first: only what private
 * commands create), committed with its result, kept by request key for
 * `/poll`. A request key already run is not run again (a delivery repeated).
 *
 * No gas is bought (a private command has no public metadata); the work is
 * bounded by {@link PRIVATE_GAS_LIMIT}. Modules may be defined at the root
 * (no namespace policy on a private state). Chain data: the chain of the
 * route, the private step's height, the time the sender sent it.
 *
 * Beside the contract state, in the same file and the same transactions
 * (store/privateLedgerStore.ts): the envelopes accepted (replays refused),
 * each party set's steps and running digest (partyChain.ts), and the newest
 * comparison with what each other party stated.
 * @module
 */
import { join } from "node:path";
import { commandInvariant } from "../../command/errors.ts";
import { runContractCommand } from "../../contract/execute.ts";
import type { Hash32 } from "../../encoding/hash32.ts";
import { CHAIN_EXEC_FLAGS } from "../../exec/blockEnv.ts";
import { commandResultText } from "../../exec/commandResult.ts";
import { contractInputOf } from "../../exec/contractInput.ts";
import { makePrivateDir } from "../../store/privateFiles.ts";
import {
  type PartyCheck,
  type PartyHead,
  type PartyStep,
  PrivateLedgerStore,
} from "../../store/privateLedgerStore.ts";
import type { SqlDatabase } from "../../store/sqlDatabase.ts";
import { NO_TXID_LIMIT, StateDb } from "../../store/stateDb.ts";
import { compareViews, EMPTY_DIGEST, nextDigest, type PartyView, partiesOf } from "./partyChain.ts";
import { PRIVATE_GAS_LIMIT, type PrivateCommand } from "./privateCommand.ts";

/** `dataDir/<network>/private/<entity>.sqlite` */
export function privateStatePath(networkDir: string, entity: string): string {
  return join(networkDir, "private", `${entity}.sqlite`);
}

/** A private step's result, and the party set's chain around it. */
export type StepOutcome = {
  /** The command result's JSON text. */
  readonly output: string;
  /** The command's party set (partyChain.ts). */
  readonly parties: string;
  /** The party set's chain before this step, and after it. */
  readonly before: PartyView;
  readonly after: PartyView;
  /** The step's time (the sender's), µs: for a request key run before, the first run's. */
  readonly timeMicros: number;
};

export class PrivateState {
  readonly entity: string;
  readonly #state: StateDb;
  readonly #ledger: PrivateLedgerStore;

  private constructor(entity: string, state: StateDb) {
    this.entity = entity;
    this.#state = state;
    this.#ledger = PrivateLedgerStore.on(state.db);
  }

  /** Opens (creating when new) the private state of `entity` under `networkDir`. */
  static open(
    networkDir: string,
    entity: string,
    nativeBinding?: string | undefined,
  ): PrivateState {
    // The user's alone, and tightened when an older release left it readable (privateFiles.ts).
    makePrivateDir(join(networkDir, "private"));
    const state = StateDb.open({ path: privateStatePath(networkDir, entity), nativeBinding });
    return new PrivateState(entity, state);
  }

  get path(): string {
    return this.#state.path;
  }

  /** The database's connection (what a backup copies through). */
  get db(): SqlDatabase {
    return this.#state.db;
  }

  /** Runs `fn` in one transaction of the private state (nested: a savepoint). */
  transaction<T>(fn: () => T): T {
    return this.#state.transaction(fn);
  }

  #view(chainId: number, parties: string, steps: number): PartyView {
    if (steps === 0) return { steps, digest: EMPTY_DIGEST };
    const at = this.#ledger.stepAt(chainId, parties, steps);
    return { steps, digest: at?.digest ?? EMPTY_DIGEST };
  }

  /**
   * Compares what `entity` stated of the party set's chain with this node's
   * history, and keeps the result (the newest per party set and entity).
   */
  compare(
    chainId: number,
    parties: string,
    entity: string,
    theirs: PartyView,
    atMs: number,
  ): PartyCheck {
    const ours = this.#ledger.head(chainId, parties)?.steps ?? 0;
    const result = compareViews(ours, (n) => this.#view(chainId, parties, n).digest, theirs);
    const check: PartyCheck = {
      chainId,
      parties,
      entity,
      at: atMs,
      result,
      theirSteps: theirs.steps,
      theirDigest: theirs.digest,
      ourSteps: ours,
    };
    this.#ledger.setCheck(check);
    return check;
  }

  /** Whether an envelope `id` from `sender` was accepted before (within the replay window). */
  hasEnvelope(sender: string, id: string): boolean {
    return this.#ledger.hasEnvelope(sender, id);
  }

  /**
   * Remembers an accepted envelope (call inside the transaction that runs its
   * command) and forgets those sent before `forgetBeforeMicros`.
   */
  recordEnvelope(
    sender: string,
    id: string,
    sentAtMicros: number,
    forgetBeforeMicros: number,
  ): void {
    this.#ledger.forgetEnvelopesBefore(forgetBeforeMicros);
    this.#ledger.recordEnvelope(sender, id, sentAtMicros);
  }

  /** Each party set's newest step and the comparisons with the other parties. */
  partyChains(): { heads: PartyHead[]; checks: PartyCheck[] } {
    if (!this.#state.isOpen) return { heads: [], checks: [] };
    return { heads: this.#ledger.heads(), checks: this.#ledger.checks() };
  }

  close(): void {
    if (this.#state.isOpen) this.#state.close();
  }

  /** The stored result of `requestKey` on `chainId`, or undefined. */
  result(chainId: number, requestKey: string): string | undefined {
    if (!this.#state.isOpen) return undefined;
    return this.#state.result(chainId, requestKey)?.output;
  }

  /**
   * Runs `command` as the next step of `chainId`'s private state and of its
   * party set's chain, and stores its result (a failing command stores its
   * failure and changes nothing else). A request key already run answers
   * its stored result and the chain as it was around its step.
   * @param timeMicros the sender's time, µs (the command's `block-time`).
   */
  execute(chainId: number, command: PrivateCommand, timeMicros: number): StepOutcome {
    const parties = partiesOf(command.address);
    return this.#state.transaction(() => {
      const done = this.result(chainId, command.hash);
      if (done !== undefined) {
        return this.#ranBefore(chainId, parties, command.hash, done, timeMicros);
      }
      const output = this.#run(chainId, command, timeMicros);
      const before = this.#view(chainId, parties, this.#ledger.head(chainId, parties)?.steps ?? 0);
      const step: PartyStep = {
        chainId,
        parties,
        step: before.steps + 1,
        requestKey: command.hash,
        digest: nextDigest(before.digest, command.hash),
        timeMicros,
      };
      this.#ledger.insertStep(step);
      return {
        output,
        parties,
        before,
        after: { steps: step.step, digest: step.digest },
        timeMicros,
      };
    });
  }

  #ranBefore(
    chainId: number,
    parties: string,
    requestKey: string,
    output: string,
    timeMicros: number,
  ): StepOutcome {
    const step = this.#ledger.stepOf(chainId, requestKey);
    if (step === undefined) {
      // Run before the party chains were kept: it stands outside them, its time unknown.
      const now = this.#view(chainId, parties, this.#ledger.head(chainId, parties)?.steps ?? 0);
      return { output, parties, before: now, after: now, timeMicros };
    }
    return {
      output,
      parties: step.parties,
      before: this.#view(chainId, step.parties, step.step - 1),
      after: { steps: step.step, digest: step.digest },
      timeMicros: step.timeMicros,
    };
  }

  #run(chainId: number, command: PrivateCommand, timeMicros: number): string {
    if (!Number.isSafeInteger(timeMicros) || timeMicros < 0) {
      throw commandInvariant("time", `not a time in µs: ${timeMicros}`);
    }
    const state = this.#state;
    const head = state.head(chainId);
    const height = head === undefined ? 0 : head.height + 1;
    const storage = state.storage(chainId, {
      readLimit: NO_TXID_LIMIT,
      writeHeight: height,
      nextTxId: head?.endTxId ?? 0,
    });
    const input = contractInputOf(command.parsed);
    const outcome = runContractCommand({
      payload: input.payload,
      data: input.data,
      signers: input.signers,
      chainData: {
        chainId: String(chainId),
        blockHeight: BigInt(height),
        blockTime: BigInt(timeMicros),
        prevBlockHash: head?.hash ?? "",
        sender: "",
        gasLimit: BigInt(PRIVATE_GAS_LIMIT),
        gasPrice: { mantissa: 0n, scale: 0 },
      },
      txHash: command.hash,
      gasLimit: PRIVATE_GAS_LIMIT,
      namespacePolicy: { kind: "simple" },
      storage,
      spv: null,
      execFlags: CHAIN_EXEC_FLAGS,
      mode: "transactional",
    });
    const ok = outcome.result.ok;
    const output = commandResultText({
      reqKey: command.hash,
      gas: ok ? outcome.gasUsed : PRIVATE_GAS_LIMIT,
      result: outcome.result,
      logs: ok ? outcome.logs : [],
      events: outcome.events,
      metaData: null,
      continuation: ok ? outcome.continuation : null,
      txId: ok ? outcome.txId : null,
    });
    // The request key is a 32-byte hash: it names the private step as a block hash would.
    const hash = command.hash as Hash32;
    state.insertResult(chainId, {
      requestKey: command.hash,
      height,
      blockHash: hash,
      position: 0,
      output,
    });
    state.recordBlock({ chainId, height, hash, endTxId: storage.nextTxId });
    return output;
  }
}
