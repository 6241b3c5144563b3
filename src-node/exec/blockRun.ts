/**
 * `runBlockOn`: executing a block on its parent's state — coinbase, then each
 * command (parsed, signatures, rules at the parent's time, not on chain
 * already, gas bought, run, gas redeemed), every output compared with the
 * payload's. The node's `ChainExecutor` runs it on a persisting storage
 * inside the block's SQLite transaction; an execution worker
 * (`SnapshotExecutor.executeBlock`) runs it on a storage that keeps its
 * commits in memory and hands the rows to the node. Both get the same
 * results, rows and verdict: the function reads nothing but its arguments.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import { type MinerInfo, parseMinerData } from "../chain/minerData.ts";
import type { PayloadWithOutputs } from "../chain/payloadWithOutputs.ts";
import type { SqliteContractStorage } from "../store/sqliteContractStorage.ts";
import type { StoredResult } from "../store/stateDb.ts";
import { applyCommand } from "./applyCommand.ts";
import { blockTransactionTextOf, parseBlockTransactionText } from "./blockTransaction.ts";
import { coinbaseOutput } from "./coinbase.ts";
import { commandRuleViolations } from "./commandRules.ts";
import { contractInputOf } from "./contractInput.ts";
import { CommandError, ExecError, ExecErrorCode } from "./errors.ts";
import { blockEnvOf, type ExecContext } from "./execContext.ts";
import { nodeCommands } from "./nodeCommands.ts";
import { duplicateCommand, type ReadyCommand } from "./payloadBuilder.ts";
import type { ReadyCommands } from "./readyCommands.ts";

export type BlockRunInput = {
  readonly header: BlockHeader;
  readonly payload: PayloadWithOutputs;
  /** The stored parent of `header`. */
  readonly parent: BlockHeader;
  /** The chain's state after `parent`, written at `header`'s height from the parent's end id. */
  readonly storage: SqliteContractStorage;
  /** True when a block of the parent's branch holds a command with this request key. */
  readonly onChain: (requestKey: string) => boolean;
  /** Commands parsed here already (skips parsing them again). */
  readonly ready: ReadyCommands;
};

/**
 * Executes the block; returns the results to index, in payload order (the
 * storage's `nextTxId` is then the block's end id).
 * @throws {ExecError} EXEC_BLOCK_INVALID (a command breaks a rule, or the miner data is
 *   unreadable), EXEC_OUTPUT_MISMATCH (an output is not what execution gives).
 */
export function runBlockOn(ctx: ExecContext, input: BlockRunInput): StoredResult[] {
  const { header, payload, parent, storage } = input;
  const chainId = header.chainId;
  const invalid = (index: number, reason: string): ExecError =>
    new ExecError(
      { code: ExecErrorCode.BlockInvalid, blockHash: header.hash, index, reason },
      index < 0
        ? `block ${header.hash} is invalid: ${reason}`
        : `block ${header.hash} is invalid: transaction ${index}: ${reason}`,
    );
  const mismatch = (part: string): ExecError =>
    new ExecError(
      { code: ExecErrorCode.OutputMismatch, blockHash: header.hash, part },
      `block ${header.hash}: ${part} is not what executing the block gives`,
    );
  let miner: MinerInfo;
  try {
    miner = parseMinerData(payload.minerData);
  } catch (e) {
    throw invalid(-1, `miner data: ${e instanceof Error ? e.message : String(e)}`);
  }
  const env = blockEnvOf(ctx, chainId, parent, storage);
  if (!sameText(coinbaseOutput(env, miner), payload.coinbase)) throw mismatch("coinbase");
  const seen = new Set<string>();
  const parentTimeS = Math.floor(parent.creationTime / 1_000_000);
  const blockTimeS = Math.floor(header.creationTime / 1_000_000);
  const results: StoredResult[] = [];
  payload.transactions.forEach((t, i) => {
    let ready: ReadyCommand;
    try {
      const field = `transactions[${i}]`;
      const text = blockTransactionTextOf(t.transaction, field);
      const known = input.ready.get(text);
      const command = known?.command ?? parseBlockTransactionText(text, field);
      nodeCommands.verifyCommandSignatures(command);
      const [problem] = commandRuleViolations(command, {
        version: ctx.version,
        chainId,
        time: { kind: "block", parentTimeS, blockTimeS },
      });
      if (problem !== undefined) throw problem;
      if (seen.has(command.hash) || input.onChain(command.hash)) {
        throw duplicateCommand(command.hash, "", seen.has(command.hash) ? "block" : "chain");
      }
      seen.add(command.hash);
      ready = known ?? { command, input: contractInputOf(command) };
    } catch (e) {
      if (e instanceof CommandError) throw invalid(i, e.message);
      throw e;
    }
    const r = applyCommand(env, ready.command, ready.input, miner);
    if (r.kind === "rejected") throw invalid(i, r.error.message);
    if (!sameText(r.output, t.output)) throw mismatch(`transactions[${i}] output`);
    results.push({
      requestKey: ready.command.hash,
      height: header.height,
      blockHash: header.hash,
      position: i,
      output: r.output,
    });
  });
  return results;
}

function sameText(text: string, bytes: Uint8Array): boolean {
  return Buffer.from(bytes).toString("utf8") === text && Buffer.byteLength(text) === bytes.length;
}
