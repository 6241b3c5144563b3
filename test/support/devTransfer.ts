/**
 * A coin transfer between two published test accounts, signed with the sender's published
 * key: the load of the tests that need transactions flowing into blocks (a backup under load,
 * the backup page's "a transfer after the backup is gone after the restore").
 */
import type { Command } from "../../src-node/command/commandTypes.ts";
import { JsonNumber } from "../../src-node/command/exactJson.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { devAccount } from "../../src-node/genesis/devAccounts.ts";

export type DevTransfer = {
  /** Decimal text, e.g. "0.5". */
  readonly amount: string;
  /** Unique per command: the same payload twice has one request key. */
  readonly nonce: string;
  /** Default 8 (sender08) → 9 (sender09). */
  readonly from?: number;
  readonly to?: number;
  /** Default "0". */
  readonly chainId?: string;
  /** Default "test-singleton". */
  readonly networkId?: string;
};

/** `senderNN` → `senderMM` of `amount`, scoped to TRANSFER and GAS, created a minute ago. */
export function devTransfer(t: DevTransfer): Command {
  const { buildCommand, signCommand } = nodeCommands;
  const fromIndex = t.from ?? 8;
  const k = devAccount(fromIndex);
  const from = `sender${String(fromIndex).padStart(2, "0")}`;
  const to = `sender${String(t.to ?? 9).padStart(2, "0")}`;
  const amount = JsonNumber.of(t.amount);
  if (amount === undefined) throw new Error(`amount ${t.amount} is not a JSON number`);
  const payload = {
    payload: { exec: { code: `(coin.transfer "${from}" "${to}" ${t.amount})`, data: null } },
    meta: {
      chainId: t.chainId ?? "0",
      sender: from,
      gasLimit: 2500,
      gasPrice: "0.00000001",
      ttl: 3600,
      creationTime: Math.floor(Date.now() / 1000) - 60,
    },
    signers: [
      {
        pubKey: k.publicKey,
        clist: [
          { name: "coin.TRANSFER", args: [from, to, amount] },
          { name: "coin.GAS", args: [] },
        ],
      },
    ],
    networkId: t.networkId ?? "test-singleton",
    nonce: t.nonce,
  };
  return signCommand(buildCommand(payload), payload.signers, [
    { publicKey: k.publicKey, secretKey: k.secretKey },
  ]);
}
