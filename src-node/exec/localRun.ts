/**
 * `/local`'s execution on a state view: the preflight's metadata rules at
 * the parent's time (without preflight, only the gas limit's), then the
 * command run on a storage that persists nothing, within the wall-clock
 * limit (exec/timeLimit.ts). Shared by `ChainExecutor.local` (in process) and the execution
 * worker (execWorker.ts).
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import type { MinerInfo } from "../chain/minerData.ts";
import type { ParsedCommand } from "../command/commandTypes.ts";
import type { ContractStorage } from "../contract/storage/contractStorage.ts";
import { localCommand } from "./applyCommand.ts";
import { commandRuleViolations, gasLimitViolation } from "./commandRules.ts";
import { contractInputOf } from "./contractInput.ts";
import type { CommandError } from "./errors.ts";
import { type ExecContext, timedEnvOf } from "./execContext.ts";

/** /local's answer: a result, or the metadata rules the command breaks (preflight). */
export type LocalAnswer =
  | { readonly kind: "result"; readonly output: string }
  | { readonly kind: "invalid"; readonly failures: readonly CommandError[] };

/** The miner /local?preflight pays its fee to (nothing it does persists). */
export const PREFLIGHT_MINER: MinerInfo = {
  account: "weft-preflight",
  predicate: "keys-all",
  publicKeys: [],
};

/**
 * Runs `command` on `storage` (the state after `parent`, persisting
 * nothing), with the wall-clock limit of `ctx.commandTimeLimitMs` (past it,
 * the answer is a failure naming the limit). With `preflight`, the metadata
 * rules are checked first (all failures reported) and gas is bought and
 * redeemed; without, the gas limit must still be within the block gas limit.
 * @throws {CommandError} CMD_BAD_FIELD for data the contract language has no value for,
 *   CMD_GAS_LIMIT (without preflight) for a gas limit outside 1 … the block gas limit.
 */
export function runLocal(
  ctx: ExecContext,
  parent: BlockHeader,
  storage: ContractStorage,
  command: ParsedCommand,
  preflight: boolean,
): LocalAnswer {
  const chainId = parent.chainId;
  if (preflight) {
    const failures = commandRuleViolations(command, {
      version: ctx.version,
      chainId,
      time: { kind: "preflight", parentTimeS: Math.floor(parent.creationTime / 1_000_000) },
    });
    if (failures.length > 0) return { kind: "invalid", failures };
  } else {
    // Without preflight too, no command runs with more gas than a block could give it.
    const tooMuch = gasLimitViolation(command, ctx.version);
    if (tooMuch !== undefined) throw tooMuch;
  }
  const input = contractInputOf(command);
  const env = timedEnvOf(ctx, chainId, parent, storage);
  const output = localCommand(env, command, input, { preflight, miner: PREFLIGHT_MINER });
  return { kind: "result", output };
}
