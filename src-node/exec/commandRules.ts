/**
 * The rules a parsed command must meet on a node and chain (spec "Command",
 * "Command payload"; reference chainweb-api.md §11.1): network id, chain id,
 * gas limit within the block gas limit, gas price at least the network's
 * minimum and with at most 12 decimals, at most 100 signatures, and the
 * time window (ttl in (0, 172800] s, creation time not too far ahead, not
 * expired). Every broken rule is reported, each as a {@link CommandError}
 * naming the field, so that preflight can list them all and /send can name
 * them. Signatures and duplicates are checked by the callers (they need
 * keys and state).
 *
 * Time is checked against a reference time that the caller chooses:
 * - `submit` (/send): the node's clock; creation time at most
 *   {@link SUBMIT_FUTURE_SLOP_S} ahead of it, not expired at it;
 * - `block` (block validation and building, deterministic): not expired at
 *   the parent block's creation time T (creation time + ttl > T, as the
 *   reference), and creation time ≤ the block's own creation time +
 *   {@link BLOCK_FUTURE_SLOP_S}. (The reference bounds it by T + 95 s; on a
 *   personal network whose chains sit idle for hours that would refuse every
 *   fresh command for the first block after a pause. The block's time is in
 *   its header, so the rule stays deterministic; a miner may only raise it.)
 * - `preflight` (/local?preflight=true): as `block`, without the future rule
 *   (the reference's preflight has none).
 * @module
 */
import type { NetworkVersion } from "../chain/networkVersion.ts";
import type { ParsedCommand } from "../command/commandTypes.ts";
import { decimalPlaces } from "../command/decimalText.ts";
import { decimalCompare, parseDecimalText } from "../contract/values/decimal.ts";
import { CommandError, CommandErrorCode } from "./errors.ts";

/** Most signatures a command may carry (reference). */
export const MAX_SIGNATURES = 100;
/** Longest time-to-live, seconds (two days, reference). */
export const MAX_TTL_S = 172_800;
/** Most decimals of a gas price. */
export const GAS_PRICE_DECIMALS = 12;
/** How far ahead of the parent block's time a creation time may be, seconds (reference). */
export const BLOCK_FUTURE_SLOP_S = 95;
/** How far ahead of the node's clock a submitted creation time may be, seconds. */
export const SUBMIT_FUTURE_SLOP_S = 95;

export type TimeRule =
  | { readonly kind: "submit"; readonly nowS: number }
  | { readonly kind: "block"; readonly parentTimeS: number; readonly blockTimeS: number }
  | { readonly kind: "preflight"; readonly parentTimeS: number };

export type CommandRuleContext = {
  readonly version: NetworkVersion;
  /** The chain of the endpoint or block. */
  readonly chainId: number;
  readonly time: TimeRule;
};

/**
 * The gas limit rule alone (1 … the block gas limit): what /local without
 * preflight checks, on every request, without the other rules' work.
 * @param prefix names the command in the field, e.g. `"cmds[2]."`.
 */
export function gasLimitViolation(
  command: ParsedCommand,
  version: NetworkVersion,
  prefix = "",
): CommandError | undefined {
  const gasLimit = command.payload.meta.gasLimit;
  const limit = version.blockGasLimit;
  if (!(gasLimit > limit || gasLimit < 1)) return undefined;
  const field = fieldOf(prefix, "meta.gasLimit");
  return new CommandError(
    { code: CommandErrorCode.GasLimit, field, limit, actual: gasLimit },
    gasLimit < 1
      ? `${field}: the gas limit ${gasLimit} is not positive`
      : `${field}: the gas limit ${gasLimit} exceeds the block gas limit ${limit}`,
  );
}

/**
 * The rules `command` breaks, in field order; empty when it meets them all.
 * @param prefix names the command in the fields, e.g. `"cmds[2]."`.
 */
export function commandRuleViolations(
  command: ParsedCommand,
  ctx: CommandRuleContext,
  prefix = "",
): CommandError[] {
  const out: CommandError[] = [];
  const p = command.payload;
  const network = ctx.version.name;
  if (p.networkId !== network) {
    const field = fieldOf(prefix, "networkId");
    out.push(
      new CommandError(
        { code: CommandErrorCode.WrongNetwork, field, expected: network, actual: p.networkId },
        `${field}: the command is for network ${p.networkId === null ? "null (network-less)" : JSON.stringify(p.networkId)}, this node runs ${network}`,
      ),
    );
  }
  const chain = String(ctx.chainId);
  if (p.meta.chainId !== chain) {
    const field = fieldOf(prefix, "meta.chainId");
    out.push(
      new CommandError(
        { code: CommandErrorCode.WrongChain, field, expected: chain, actual: p.meta.chainId },
        `${field}: the command is for chain ${JSON.stringify(p.meta.chainId)}, it was sent to chain ${chain}`,
      ),
    );
  }
  const gasLimit = gasLimitViolation(command, ctx.version, prefix);
  if (gasLimit !== undefined) out.push(gasLimit);
  const price = p.meta.gasPrice;
  if (decimalPlaces(price) > GAS_PRICE_DECIMALS) {
    const field = fieldOf(prefix, "meta.gasPrice");
    out.push(
      new CommandError(
        { code: CommandErrorCode.GasPricePrecision, field, actual: price },
        `${field}: the gas price ${price} has more than ${GAS_PRICE_DECIMALS} decimal places`,
      ),
    );
  }
  const min = ctx.version.minGasPrice;
  const priceDecimal = parseDecimalText(price);
  const minDecimal = parseDecimalText(min);
  if (
    priceDecimal === null ||
    minDecimal === null ||
    decimalCompare(priceDecimal, minDecimal) < 0
  ) {
    const field = fieldOf(prefix, "meta.gasPrice");
    out.push(
      new CommandError(
        { code: CommandErrorCode.GasPriceTooLow, field, minimum: min, actual: price },
        `${field}: the gas price ${price} is below the minimum gas price ${min} of ${network}`,
      ),
    );
  }
  if (command.sigs.length > MAX_SIGNATURES) {
    const field = `${prefix}sigs`;
    out.push(
      new CommandError(
        {
          code: CommandErrorCode.TooManySignatures,
          field,
          limit: MAX_SIGNATURES,
          actual: command.sigs.length,
        },
        `${field}: ${command.sigs.length} signatures, at most ${MAX_SIGNATURES} are allowed`,
      ),
    );
  }
  out.push(...timeViolations(command, ctx.time, prefix));
  return out;
}

/** `cmds[2].cmd.meta.ttl`: a plain function (tsx names every closure, on a per-command path). */
function fieldOf(prefix: string, path: string): string {
  return `${prefix}cmd.${path}`;
}

function timeViolations(command: ParsedCommand, time: TimeRule, prefix: string): CommandError[] {
  const out: CommandError[] = [];
  const { ttl, creationTime } = command.payload.meta;
  if (ttl <= 0 || ttl > MAX_TTL_S) {
    const field = fieldOf(prefix, "meta.ttl");
    out.push(
      new CommandError(
        { code: CommandErrorCode.BadTtl, field, actual: ttl },
        `${field}: the time-to-live ${ttl} s is outside 1 to ${MAX_TTL_S} s`,
      ),
    );
  }
  const reference = time.kind === "submit" ? time.nowS : time.parentTimeS;
  const what = time.kind === "submit" ? "the node's clock" : "the parent block's time";
  if (creationTime < 0 || creationTime + ttl <= reference) {
    const field = fieldOf(prefix, "meta.creationTime");
    out.push(
      new CommandError(
        {
          code: CommandErrorCode.Expired,
          field,
          expiredAt: creationTime + ttl,
          reference,
        },
        `${field}: the command expired: creation time ${creationTime} + ttl ${ttl} s is not after ${what} (${reference})`,
      ),
    );
  }
  if (time.kind !== "preflight") {
    const slop = time.kind === "submit" ? SUBMIT_FUTURE_SLOP_S : BLOCK_FUTURE_SLOP_S;
    const base = time.kind === "submit" ? time.nowS : time.blockTimeS;
    const latest = base + slop;
    if (creationTime > latest) {
      const field = fieldOf(prefix, "meta.creationTime");
      out.push(
        new CommandError(
          { code: CommandErrorCode.FutureCreationTime, field, actual: creationTime, latest },
          `${field}: the creation time ${creationTime} is too far in the future (more than ${slop} s after ${time.kind === "submit" ? "the node's clock" : "the block's time"}, ${base})`,
        ),
      );
    }
  }
  return out;
}
