/**
 * Building the payload of a new block: coinbase, then mempool candidates in
 * order while they fit the block gas limit, each tried on the state the
 * ones before it left. Shared by `ChainExecutor.buildPayload` (in process,
 * inside a rolled-back SQLite transaction) and the execution worker
 * (execWorker.ts: on a read-only snapshot with a storage that persists
 * nothing); both give the same outputs, which validation checks again.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import { type MinerInfo, minerDataBytes } from "../chain/minerData.ts";
import { buildPayloadWithOutputs, type PayloadWithOutputs } from "../chain/payloadWithOutputs.ts";
import type { ParsedCommand } from "../command/commandTypes.ts";
import { fail, ok, type Result } from "../errors/result.ts";
import type { SqliteContractStorage } from "../store/sqliteContractStorage.ts";
import { type AppliedCommand, applyCommand } from "./applyCommand.ts";
import { blockTransactionBytes } from "./blockTransaction.ts";
import { coinbaseRun } from "./coinbase.ts";
import { commandRuleViolations } from "./commandRules.ts";
import type { ContractInput } from "./contractInput.ts";
import { CommandError, CommandErrorCode, ExecError, ExecErrorCode } from "./errors.ts";
import { type ExecContext, timedEnvOf } from "./execContext.ts";

/** A command ready to run: parsed, with its contract inputs. */
export type ReadyCommand = { readonly command: ParsedCommand; readonly input: ContractInput };

/** What building a payload gave: the payload, and the candidates it left out. */
export type BuiltPayload = {
  readonly payload: PayloadWithOutputs;
  readonly included: readonly ParsedCommand[];
  /**
   * Commands that can never be included on this branch (expired, on chain,
   * gas not buyable), or whose execution threw (CMD_UNEXECUTABLE: the time
   * limit, a bug).
   */
  readonly dropped: readonly { readonly command: ParsedCommand; readonly error: CommandError }[];
};

/** What building needs of the state besides the storage. */
export type PayloadState = {
  /** True when the parent's branch holds a command with this request key. */
  onChain(requestKey: string): boolean;
  /**
   * Runs one candidate's execution in a savepoint: what `fn` wrote to the database is kept
   * when it returns a success and taken back when it returns a failure or throws (the throw
   * goes on). The storage's own commits are taken back by the builder (`restore`).
   */
  attempt<T, E>(fn: () => Result<T, E>): Result<T, E>;
  /** Logs a warning (a command left out because its execution threw); none: not logged here. */
  warn?(message: string, fields: Record<string, unknown>): void;
};

/**
 * The payload of a new block on `parent` for `miner`, executed on
 * `storage` (the state after `parent`, writing at `parent.height + 1`).
 * `blockTimeS`: a lower bound of the new block's creation time (seconds),
 * for the creation-time rule. A candidate that cannot be applied now is
 * left out: `dropped` when it never can be on this branch, silently when it
 * may later (creation time ahead of the parent's time, not enough gas left
 * in this block). Whatever else a command throws (the wall-clock limit of
 * `ctx.commandTimeLimitMs`, a bug) costs it its place, never the payload:
 * it is dropped with CMD_UNEXECUTABLE and a warning.
 * @throws {ExecError} EXEC_COINBASE_FAILS when the coin contract refuses the miner's coinbase.
 */
export function buildPayloadOn(
  ctx: ExecContext,
  parent: BlockHeader,
  miner: MinerInfo,
  candidates: readonly ReadyCommand[],
  blockTimeS: number,
  storage: SqliteContractStorage,
  state: PayloadState,
): BuiltPayload {
  const chainId = parent.chainId;
  const env = timedEnvOf(ctx, chainId, parent, storage);
  const cb = coinbaseRun(env, miner);
  if (cb.failure !== null) {
    // A block may carry a failed coinbase (it stays valid), but work for
    // it would have the miner search for a block that pays nobody.
    throw new ExecError(
      { code: ExecErrorCode.CoinbaseFails, account: miner.account, reason: cb.failure },
      `no work for miner ${JSON.stringify(miner.account)}: the coin contract refuses its coinbase: ${cb.failure}`,
    );
  }
  const coinbase = cb.output;
  const included: { command: ParsedCommand; output: string }[] = [];
  const dropped: { command: ParsedCommand; error: CommandError }[] = [];
  const seen = new Set<string>();
  let gasLeft = ctx.version.blockGasLimit;
  const parentTimeS = Math.floor(parent.creationTime / 1_000_000);
  for (const { command, input } of candidates) {
    if (seen.has(command.hash)) continue;
    const problems = commandRuleViolations(command, {
      version: ctx.version,
      chainId,
      time: { kind: "block", parentTimeS, blockTimeS },
    });
    const [problem] = problems;
    if (problem !== undefined) {
      // Too early now is fine later; anything else never is.
      if (!problems.every((p) => p.code === CommandErrorCode.FutureCreationTime)) {
        dropped.push({ command, error: problem });
      }
      continue;
    }
    if (state.onChain(command.hash)) {
      dropped.push({ command, error: duplicateCommand(command.hash, "", "chain") });
      continue;
    }
    if (command.payload.meta.gasLimit > gasLeft) continue;
    const mark = storage.mark();
    let r: Result<AppliedCommand, CommandError>;
    try {
      r = state.attempt(() => {
        const x = applyCommand(env, command, input, miner);
        return x.kind === "rejected" ? fail(x.error) : ok(x);
      });
    } catch (e) {
      storage.restore(mark);
      // Whatever else a command throws (the time limit, a bug) costs it its place, never
      // the work request: it is left out, leaves the mempool, and the reason is logged.
      const reason = e instanceof Error ? e.message : String(e);
      state.warn?.(UNEXECUTABLE_WARNING, { chainId, requestKey: command.hash, reason });
      dropped.push({ command, error: unexecutable(command.hash, reason) });
      continue;
    }
    if (!r.ok) {
      storage.restore(mark);
      dropped.push({ command, error: r.error });
      continue;
    }
    included.push({ command, output: r.value.output });
    seen.add(command.hash);
    gasLeft -= command.payload.meta.gasLimit;
  }
  const encoder = new TextEncoder();
  return {
    payload: buildPayloadWithOutputs({
      transactions: included.map((c) => ({
        transaction: blockTransactionBytes(c.command),
        output: encoder.encode(c.output),
      })),
      minerData: minerDataBytes(miner),
      coinbase: encoder.encode(coinbase),
    }),
    included: included.map((c) => c.command),
    dropped,
  };
}

/** The warning logged for a command dropped because its execution threw. */
export const UNEXECUTABLE_WARNING = "a mempool command could not be executed; dropped";

/** CMD_UNEXECUTABLE: the command's execution threw something other than a contract failure. */
export function unexecutable(requestKey: string, reason: string): CommandError {
  return new CommandError(
    { code: CommandErrorCode.Unexecutable, field: "cmd", reason },
    `the command ${requestKey} could not be executed: ${reason}`,
  );
}

/** The error of a command that is on chain, or twice in a block or batch, already. */
export function duplicateCommand(
  requestKey: string,
  prefix: string,
  where: "chain" | "batch" | "block",
): CommandError {
  const field = `${prefix}hash`;
  const text =
    where === "chain"
      ? "is already on chain"
      : where === "block"
        ? "appears twice in the block"
        : "appears twice in the batch";
  return new CommandError(
    { code: CommandErrorCode.Duplicate, field, requestKey, where },
    `${field}: the command ${requestKey} ${text}`,
  );
}
