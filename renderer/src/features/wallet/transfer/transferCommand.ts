/**
 * The command of a transfer on one chain, exactly as it is reviewed and signed:
 * `coin.transfer` to an existing receiver, or `coin.transfer-create` with the receiver's
 * guard (a keyset in the command's data) for one that does not exist yet; one signer, the
 * sender's key, scoped to `(coin.TRANSFER sender receiver amount)` and `(coin.GAS)`; the
 * sender pays the gas. Step 1 of a cross-chain transfer is the same with
 * `coin.transfer-crosschain` (the receiver's guard always in the data) and
 * `(coin.TRANSFER_XCHAIN sender receiver amount "target")`. Amounts are written as Pact decimals from exact base units.
 * @module
 */
import type { Capability, CommandPayload } from "../../../../../src-node/command/commandTypes.ts";
import { JsonNumber } from "../../../../../src-node/command/exactJson.ts";
import { COIN_DECIMALS, formatAmount, pactDecimal } from "../../../format/amount.ts";
import { pactValueText } from "../../../format/pactValueText.ts";
import { pactString } from "../accounts/accountDetails.ts";

/** The name of the keyset in a `transfer-create` command's data. */
export const RECEIVER_GUARD_KEY = "receiver-guard";

export type KeysetGuard = { readonly keys: readonly string[]; readonly pred: string };

export type TransferPlan = {
  readonly networkId: string;
  readonly chainId: number;
  /**
   * Set and different from `chainId` for a cross-chain transfer (step 1,
   * `coin.transfer-crosschain`, `crosschain/`); then `createGuard` is the receiver's guard on
   * the target chain (its existing keyset, or the new account's).
   */
  readonly targetChainId?: number;
  readonly sender: string;
  /** The sender's key that signs (64 hex). */
  readonly signerPublicKey: string;
  readonly receiver: string;
  /** Set when the receiver does not exist on the chain: `transfer-create` with this guard. */
  readonly createGuard: KeysetGuard | null;
  /** Base units (12 decimals), > 0. */
  readonly amount: bigint;
  readonly gasLimit: number;
  /** Base units (12 decimals). */
  readonly gasPrice: bigint;
  /** Seconds. */
  readonly ttl: number;
  /** UNIX seconds. */
  readonly creationTime: number;
  readonly nonce: string;
};

/** Whether the plan is step 1 of a cross-chain transfer. */
export function isCrossChain(plan: TransferPlan): boolean {
  return plan.targetChainId !== undefined && plan.targetChainId !== plan.chainId;
}

/** The contract code of the transfer. */
export function transferCode(plan: TransferPlan): string {
  const from = pactString(plan.sender);
  const to = pactString(plan.receiver);
  const amount = pactDecimal(plan.amount);
  if (isCrossChain(plan)) {
    if (plan.createGuard === null) throw new RangeError("a cross-chain transfer needs the guard");
    return `(coin.transfer-crosschain ${from} ${to} (read-keyset ${pactString(RECEIVER_GUARD_KEY)}) ${pactString(String(plan.targetChainId))} ${amount})`;
  }
  return plan.createGuard === null
    ? `(coin.transfer ${from} ${to} ${amount})`
    : `(coin.transfer-create ${from} ${to} (read-keyset ${pactString(RECEIVER_GUARD_KEY)}) ${amount})`;
}

/** The capabilities the sender's signature is scoped to. */
export function transferCapabilities(plan: TransferPlan): readonly Capability[] {
  const amount = JsonNumber.of(pactDecimal(plan.amount));
  if (amount === undefined) throw new RangeError(`not an amount: ${plan.amount}`);
  if (isCrossChain(plan)) {
    return [
      {
        name: "coin.TRANSFER_XCHAIN",
        args: [plan.sender, plan.receiver, amount, String(plan.targetChainId)],
      },
      { name: "coin.GAS", args: [] },
    ];
  }
  return [
    { name: "coin.TRANSFER", args: [plan.sender, plan.receiver, amount] },
    { name: "coin.GAS", args: [] },
  ];
}

/** The whole payload (`cmd` is `cmdOf` of it). */
export function transferPayload(plan: TransferPlan): CommandPayload {
  if (plan.amount <= 0n) throw new RangeError("the amount must be positive");
  return {
    payload: {
      exec: {
        code: transferCode(plan),
        data:
          plan.createGuard === null
            ? null
            : {
                [RECEIVER_GUARD_KEY]: {
                  keys: [...plan.createGuard.keys],
                  pred: plan.createGuard.pred,
                },
              },
      },
    },
    meta: {
      chainId: String(plan.chainId),
      sender: plan.sender,
      gasLimit: plan.gasLimit,
      gasPrice: formatAmount(plan.gasPrice, COIN_DECIMALS, { group: false }),
      ttl: plan.ttl,
      creationTime: plan.creationTime,
    },
    signers: [{ pubKey: plan.signerPublicKey, clist: transferCapabilities(plan) }],
    networkId: plan.networkId,
    nonce: plan.nonce,
  };
}

/**
 * Capabilities as the reviews show them: `(coin.TRANSFER "a" "b" 1.0)`, every argument at any
 * depth with its numbers as written (format/pactValueText.ts).
 */
export function capabilityText(c: Capability): string {
  return `(${[c.name, ...c.args.map(pactValueText)].join(" ")})`;
}
