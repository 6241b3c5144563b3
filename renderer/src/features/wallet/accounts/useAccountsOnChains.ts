/**
 * The wallet's view of its accounts on every chain: one batched `/local` per chain (all
 * accounts in one command, `accountDetails.ts`), refreshed when a block lands on that
 * chain — at most once a second per chain, so a fast-mining node cannot turn the refresh
 * into a request storm.
 * @module
 */
import { useQueries, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useLiveChain, useServices } from "../../../services/services.tsx";
import { accountsQuery, walletKeys } from "../api.ts";
import type { AccountOnChain } from "./accountDetails.ts";

const REFRESH_MS = 1000;

/**
 * Refreshes the wallet's queries of a chain when a block lands there: at once for the first
 * block, then at most once per {@link REFRESH_MS} (the last block of a burst always counts).
 */
export function useRefreshOnBlocks(): void {
  const { chain } = useServices();
  const queries = useQueryClient();
  useEffect(() => {
    const last = new Map<number, number>();
    const timers = new Map<number, ReturnType<typeof setTimeout>>();
    const refresh = (chainId: number) => {
      last.set(chainId, Date.now());
      void queries.invalidateQueries({ queryKey: walletKeys.chain(chainId) });
    };
    const stop = chain.onBlock(({ chainId }) => {
      if (timers.has(chainId)) return;
      const wait = (last.get(chainId) ?? 0) + REFRESH_MS - Date.now();
      if (wait <= 0) {
        refresh(chainId);
        return;
      }
      timers.set(
        chainId,
        setTimeout(() => {
          timers.delete(chainId);
          refresh(chainId);
        }, wait),
      );
    });
    return () => {
      stop();
      for (const t of timers.values()) clearTimeout(t);
    };
  }, [chain, queries]);
}

export type ChainAccounts = {
  readonly chainId: number;
  /** Undefined while loading. */
  readonly accounts: readonly AccountOnChain[] | undefined;
  readonly error: unknown;
  readonly refetch: () => void;
};

/** `accounts` on every chain of the node (the live cut's chains), one query per chain. */
export function useAccountsOnChains(accounts: readonly string[]): readonly ChainAccounts[] {
  const { config, pact } = useServices();
  const { heights } = useLiveChain();
  useRefreshOnBlocks();
  const chains = heights.heads.map((h) => h.chainId);
  const results = useQueries({
    queries: chains.map((chainId) => accountsQuery(pact, config.networkId, chainId, accounts)),
  });
  return chains.map((chainId, i) => {
    const r = results[i];
    return {
      chainId,
      accounts: r?.data,
      error: r?.error ?? null,
      refetch: () => void r?.refetch(),
    };
  });
}
