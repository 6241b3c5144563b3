/**
 * The query cache for server data (TanStack Query) and its query keys. Keys start with the
 * area (`node`, `app`, `chain`, `cut`); a block added to the best cut invalidates the
 * queries of its chain (`["chain", id, …]`) and of the cut (`["cut", …]`), so pages that
 * show chain data refetch only when it can have changed.
 * @module
 */
import { QueryClient } from "@tanstack/react-query";
import { isRetryable } from "../api/clientFailure.ts";
import type { ChainStore } from "./chainStore.ts";

export const queryKeys = {
  nodeHealth: ["node", "health"] as const,
  nodeInfo: ["node", "info"] as const,
  mining: ["app", "mining"] as const,
  miningHistory: ["app", "mining", "history"] as const,
  nodeStatus: ["app", "node", "status"] as const,
  nodeLog: (level: string) => ["app", "node", "log", level] as const,
  chain: (chainId: number) => ["chain", chainId] as const,
  cut: ["cut"] as const,
};

export function createAppQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // One quick retry for a dropped connection; a 4xx answer would only repeat.
        retry: (failures, error) => failures < 1 && isRetryable(error),
        staleTime: 1000,
        // The node is on this computer (or the page's own origin): whether the browser
        // thinks it is online says nothing about it, so nothing waits for that.
        networkMode: "always",
      },
      mutations: { retry: false, networkMode: "always" },
    },
  });
}

/** Invalidates chain and cut queries on every new block; returns the unsubscribe function. */
export function invalidateOnNewBlocks(chain: ChainStore, queries: QueryClient): () => void {
  return chain.onBlock((update) => {
    void queries.invalidateQueries({ queryKey: queryKeys.chain(update.chainId) });
    void queries.invalidateQueries({ queryKey: queryKeys.cut });
  });
}
