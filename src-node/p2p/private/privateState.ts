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
 * @module
 */
import { join } from "node:path";
import { commandInvariant } from "../../command/errors.ts";
import { runContractCommand } from "../../contract/execute.ts";
import type { Hash32 } from "../../encoding/hash32.ts";
import { CHAIN_EXEC_FLAGS } from "../../exec/blockEnv.ts";
import { commandResultText } from "../../exec/commandResult.ts";
import { contractInputOf } from "../../exec/contractInput.ts";
import { NO_TXID_LIMIT, StateDb } from "../../store/stateDb.ts";
import { PRIVATE_GAS_LIMIT, type PrivateCommand } from "./privateCommand.ts";

/** `dataDir/<network>/private/<entity>.sqlite` */
export function privateStatePath(networkDir: string, entity: string): string {
  return join(networkDir, "private", `${entity}.sqlite`);
}

export class PrivateState {
  readonly entity: string;
  readonly #state: StateDb;

  private constructor(entity: string, state: StateDb) {
    this.entity = entity;
    this.#state = state;
  }

  /** Opens (creating when new) the private state of `entity` under `networkDir`. */
  static open(
    networkDir: string,
    entity: string,
    nativeBinding?: string | undefined,
  ): PrivateState {
    const state = StateDb.open({ path: privateStatePath(networkDir, entity), nativeBinding });
    return new PrivateState(entity, state);
  }

  get path(): string {
    return this.#state.path;
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
   * Runs `command` as the next step of `chainId`'s private state and stores
   * its result (a failing command stores its failure and changes nothing
   * else); the result JSON text. A request key already run answers its
   * stored result.
   * @param timeMicros the sender's time, µs (the command's `block-time`).
   */
  execute(chainId: number, command: PrivateCommand, timeMicros: number): string {
    const done = this.result(chainId, command.hash);
    if (done !== undefined) return done;
    if (!Number.isSafeInteger(timeMicros) || timeMicros < 0) {
      throw commandInvariant("time", `not a time in µs: ${timeMicros}`);
    }
    const state = this.#state;
    return state.transaction(() => {
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
    });
  }
}
