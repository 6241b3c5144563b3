/**
 * What the history records of a command the wallet sends or prepares: its chain, sender (the
 * gas payer), gas price, expiry, and — when a signer's capabilities name a coin transfer
 * (`coin.TRANSFER` or `coin.TRANSFER_XCHAIN`) — the receiver, the amount and the target chain.
 * @module
 */
import type { CommandPayload } from "../../../../../src-node/command/commandTypes.ts";
import { JsonNumber } from "../../../../../src-node/command/exactJson.ts";
import type { HistoryEntry } from "../../../../../src-node/walletFiles/historyEntry.ts";
import { COIN_DECIMALS, formatAmount, unitsOfDecimalText } from "../../../format/amount.ts";

export type CommandFacts = Pick<
  HistoryEntry,
  "chain" | "targetChain" | "sender" | "receiver" | "amount" | "gasPrice" | "expiresAt"
>;

/** A decimal as the history writes it (`1.5`, `0.00000001`), or null. */
export function decimalText(x: unknown): string | null {
  const text =
    x instanceof JsonNumber
      ? x.text
      : typeof x === "number"
        ? String(x)
        : typeof x === "string"
          ? x
          : typeof x === "object" &&
              x !== null &&
              typeof (x as { decimal?: unknown }).decimal === "string"
            ? (x as { decimal: string }).decimal
            : null;
  if (text === null) return null;
  const units = unitsOfDecimalText(text, COIN_DECIMALS);
  return units.ok && units.value >= 0n
    ? formatAmount(units.value, COIN_DECIMALS, { group: false })
    : null;
}

export function commandFacts(payload: CommandPayload): CommandFacts {
  const caps = payload.signers.flatMap((s) => s.clist);
  const transfer = caps.find(
    (c) => c.name === "coin.TRANSFER" || c.name === "coin.TRANSFER_XCHAIN",
  );
  const chain = Number(payload.meta.chainId);
  const target =
    transfer?.name === "coin.TRANSFER_XCHAIN" && typeof transfer.args[3] === "string"
      ? Number(transfer.args[3])
      : null;
  const receiver = transfer?.args[1];
  return {
    chain,
    targetChain: target !== null && Number.isInteger(target) && target !== chain ? target : null,
    sender: payload.meta.sender === "" ? null : payload.meta.sender,
    receiver: typeof receiver === "string" ? receiver : null,
    amount: transfer === undefined ? null : decimalText(transfer.args[2]),
    gasPrice: decimalText(payload.meta.gasPrice),
    expiresAt: payload.meta.creationTime + payload.meta.ttl,
  };
}
