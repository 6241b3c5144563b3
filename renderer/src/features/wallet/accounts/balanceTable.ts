/**
 * The wallet home's table from the per-chain reads: for each account its balance on each
 * chain (null: not created there; undefined: not read yet) and the exact total over the
 * chains read so far.
 * @module
 */
import type { AccountOnChain } from "./accountDetails.ts";

export type AccountBalances = {
  readonly account: string;
  /** Per chain id: base units, null when the account does not exist there, undefined while unknown. */
  readonly byChain: ReadonlyMap<number, bigint | null | undefined>;
  /** Sum over the chains read. */
  readonly total: bigint;
  /** Whether every chain has been read. */
  readonly complete: boolean;
};

export type ChainRead = {
  readonly chainId: number;
  readonly accounts: readonly AccountOnChain[] | undefined;
};

export function balanceTable(
  accounts: readonly string[],
  chains: readonly ChainRead[],
): readonly AccountBalances[] {
  return accounts.map((account, i) => {
    const byChain = new Map<number, bigint | null | undefined>();
    let total = 0n;
    let complete = true;
    for (const c of chains) {
      const on = c.accounts?.[i];
      if (on === undefined || on.account !== account) {
        byChain.set(c.chainId, undefined);
        complete = false;
      } else if (on.exists) {
        byChain.set(c.chainId, on.balance);
        total += on.balance;
      } else {
        byChain.set(c.chainId, null);
      }
    }
    return { account, byChain, total, complete };
  });
}
