/**
 * Applying one command on chain (reference pact-language.md §8.2): buy gas
 * (gas limit × gas price from the sender), run the payload under the gas
 * meter (the size charge first; on failure all gas is used and the
 * payload's writes are rolled back), redeem gas (the fee, gas used × gas
 * price, to the miner, the rest back to the sender), and build the command
 * result. A command whose gas cannot be bought (or redeemed) is not
 * applied: it is rejected, and a block containing it is invalid.
 *
 * {@link localCommand} is the /local variant: without gas purchase (legacy)
 * or fully gassed (preflight), on a storage that persists nothing.
 * @module
 */
import type { MinerInfo } from "../chain/minerData.ts";
import type { ParsedCommand } from "../command/commandTypes.ts";
import { renderPactError } from "../contract/errors.ts";
import type { EvalResult } from "../contract/evaluate.ts";
import { type ContractOutcome, runContractCommand } from "../contract/execute.ts";
import type { Decimal } from "../contract/values/decimal.ts";
import type { PactValue } from "../contract/values/value.ts";
import { type BlockEnv, CHAIN_EXEC_FLAGS, chainDataOf, publicDataJson } from "./blockEnv.ts";
import { commandResultText } from "./commandResult.ts";
import type { ContractInput } from "./contractInput.ts";
import { CommandError, CommandErrorCode } from "./errors.ts";
import { decimalOfText, gasAmount, txSizeGas } from "./gasMath.ts";
import { gasPayerOf } from "./gasPayer.ts";
import { buyGas, redeemGas } from "./systemCalls.ts";
import { isTimeLimit, TimedStepMeter } from "./timeLimit.ts";

export type AppliedCommand = {
  readonly kind: "applied";
  /** The command result JSON text (the block's output for this command). */
  readonly output: string;
  readonly gasUsed: number;
  /** The result's outcome (for the results index and callers that inspect it). */
  readonly result: EvalResult<PactValue>;
};

export type RejectedCommand = { readonly kind: "rejected"; readonly error: CommandError };

function failureText(o: ContractOutcome): string {
  return o.result.ok ? "" : renderPactError(o.result.error);
}

function tooBig(size: number, limit: number): EvalResult<PactValue> {
  return {
    ok: false,
    error: {
      kind: "GasError",
      message: `Tx too big (${size} gas for its size, gas limit ${limit})`,
      span: null,
      callStack: [],
    },
  };
}

/** Runs the payload under the command's gas limit (after the size charge). */
function runPayload(
  env: BlockEnv,
  command: ParsedCommand,
  input: ContractInput,
  mode: "transactional" | "local",
): ContractOutcome {
  const meta = command.payload.meta;
  const meter = env.timeLimitMs === undefined ? undefined : new TimedStepMeter(env.timeLimitMs);
  try {
    return runPayloadWith(env, command, input, mode, meter);
  } catch (e) {
    // /local answers the time limit as the command's failure; building a payload leaves the command out.
    if (mode !== "local" || !isTimeLimit(e)) throw e;
    return {
      result: {
        ok: false,
        error: { kind: "EvalError", message: e.message, span: null, callStack: [] },
      },
      events: [],
      continuation: null,
      gasUsed: meta.gasLimit,
      logs: [],
      txId: null,
    };
  }
}

function runPayloadWith(
  env: BlockEnv,
  command: ParsedCommand,
  input: ContractInput,
  mode: "transactional" | "local",
  meter: TimedStepMeter | undefined,
): ContractOutcome {
  const meta = command.payload.meta;
  return runContractCommand({
    meter,
    payload: input.payload,
    data: input.data,
    signers: input.signers,
    chainData: chainDataOf(env, meta),
    txHash: command.hash,
    gasLimit: meta.gasLimit,
    initialGas: txSizeGas(input.sizeBytes),
    namespacePolicy: env.namespacePolicy,
    storage: env.storage,
    spv: env.spv,
    execFlags: CHAIN_EXEC_FLAGS,
    mode,
  });
}

type Gassed =
  | {
      readonly kind: "ok";
      readonly payload: ContractOutcome | null;
      readonly result: EvalResult<PactValue>;
      readonly gasUsed: number;
      readonly events: ContractOutcome["events"];
    }
  | { readonly kind: "buy-failed"; readonly reason: string }
  | { readonly kind: "redeem-failed"; readonly reason: string };

/** Buy gas → run → redeem, on `env.storage`. */
function gassed(
  env: BlockEnv,
  command: ParsedCommand,
  input: ContractInput,
  miner: MinerInfo,
): Gassed {
  const meta = command.payload.meta;
  const price: Decimal = decimalOfText(meta.gasPrice);
  const total = gasAmount(meta.gasLimit, price);
  const bought = buyGas(env, meta, input.signers, total, command.hash, gasPayerOf(input));
  if (!bought.result.ok) return { kind: "buy-failed", reason: failureText(bought) };
  const size = txSizeGas(input.sizeBytes);
  let payload: ContractOutcome | null = null;
  let result: EvalResult<PactValue>;
  let gasUsed: number;
  if (size >= meta.gasLimit) {
    result = tooBig(size, meta.gasLimit);
    gasUsed = meta.gasLimit;
  } else {
    payload = runPayload(env, command, input, "transactional");
    result = payload.result;
    gasUsed = result.ok ? payload.gasUsed : meta.gasLimit;
  }
  const redeemed = redeemGas(env, meta, miner, total, gasAmount(gasUsed, price), command.hash);
  if (!redeemed.result.ok) return { kind: "redeem-failed", reason: failureText(redeemed) };
  return {
    kind: "ok",
    payload,
    result,
    gasUsed,
    // The fee transfer comes first (reference §8.2).
    events: [...redeemed.events, ...(payload?.events ?? [])],
  };
}

/**
 * Applies a command in a block on `env.storage` (which commits).
 * @param prefix names the command in errors, e.g. `"cmds[2]."`.
 */
export function applyCommand(
  env: BlockEnv,
  command: ParsedCommand,
  input: ContractInput,
  miner: MinerInfo,
  prefix = "",
): AppliedCommand | RejectedCommand {
  const g = gassed(env, command, input, miner);
  if (g.kind !== "ok") {
    const field = `${prefix}cmd.meta.sender`;
    const sender = JSON.stringify(command.payload.meta.sender);
    const error =
      g.kind === "buy-failed"
        ? new CommandError(
            { code: CommandErrorCode.BuyGasFailed, field, reason: g.reason },
            `${field}: buying gas from ${sender} failed: ${g.reason}`,
          )
        : new CommandError(
            { code: CommandErrorCode.RedeemGasFailed, field, reason: g.reason },
            `${field}: redeeming gas for ${sender} failed: ${g.reason}`,
          );
    return { kind: "rejected", error };
  }
  const p = g.payload;
  const ok = g.result.ok && p !== null;
  const output = commandResultText({
    reqKey: command.hash,
    gas: g.gasUsed,
    result: g.result,
    logs: ok ? p.logs : [],
    events: g.events,
    metaData: null,
    continuation: ok ? p.continuation : null,
    txId: ok ? p.txId : null,
  });
  return { kind: "applied", output, gasUsed: g.gasUsed, result: g.result };
}

/**
 * A /local run on a storage that persists nothing; the command result text.
 * Legacy (`preflight` false): the payload alone, no gas bought. Preflight:
 * buy → run → redeem; a failed purchase is a failure result. `logs` is
 * always a hash here (the spec types it as a string): of the payload's
 * writes after a gassed success, else of the empty write log.
 */
export function localCommand(
  env: BlockEnv,
  command: ParsedCommand,
  input: ContractInput,
  options: { readonly preflight: boolean; readonly miner: MinerInfo },
): string {
  const meta = command.payload.meta;
  const metaData = publicDataJson(env, meta);
  if (!options.preflight) {
    const out = runPayload(env, command, input, "local");
    return commandResultText({
      reqKey: command.hash,
      gas: out.gasUsed,
      result: out.result,
      // Always a hash (spec: `logs` is a string); a local run commits nothing, so [] (the reference's too).
      logs: out.logs,
      events: out.events,
      metaData,
      continuation: out.continuation,
      txId: null,
    });
  }
  const g = gassed(env, command, input, options.miner);
  if (g.kind !== "ok") {
    const what =
      g.kind === "buy-failed"
        ? "Attempt to buy gas failed with"
        : "Attempt to redeem gas failed with";
    return commandResultText({
      reqKey: command.hash,
      gas: meta.gasLimit,
      result: {
        ok: false,
        error: { kind: "TxFailure", message: `${what}: ${g.reason}`, span: null, callStack: [] },
      },
      logs: [],
      events: [],
      metaData,
      continuation: null,
      txId: null,
    });
  }
  const p = g.payload;
  const ok = g.result.ok && p !== null;
  return commandResultText({
    reqKey: command.hash,
    gas: g.gasUsed,
    result: g.result,
    logs: ok ? p.logs : [],
    events: g.events,
    metaData,
    continuation: ok ? p.continuation : null,
    txId: ok ? p.txId : null,
  });
}
