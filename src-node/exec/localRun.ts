/**
 * `/local`'s execution on a state view: the preflight's metadata rules at
 * the parent's time, then the command run on a storage that persists
 * nothing. Shared by `ChainExecutor.local` (in process) and the execution
 * worker (execWorker.ts).
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import type { MinerInfo } from "../chain/minerData.ts";
import type { ContractStorage } from "../contract/storage/contractStorage.ts";
import { localCommand } from "./applyCommand.ts";
import { commandRuleViolations } from "./commandRules.ts";
import type { ParsedCommand } from "./commandTypes.ts";
import { contractInputOf } from "./contractInput.ts";
import type { CommandError } from "./errors.ts";
import { blockEnvOf, type ExecContext } from "./execContext.ts";

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
 * nothing). With `preflight`, the metadata rules are checked first (all
 * failures reported) and gas is bought and redeemed.
 * @throws {CommandError} CMD_BAD_FIELD for data the contract language has no value for.
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
  }
  const input = contractInputOf(command);
  const env = blockEnvOf(ctx, chainId, parent, storage);
  const output = localCommand(env, command, input, { preflight, miner: PREFLIGHT_MINER });
  return { kind: "result", output };
}
