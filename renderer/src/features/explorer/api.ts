/**
 * The explorer's server data as query options. Chain data lives under the chain's key
 * (`["chain", id, "explorer", …]`), so a new block on that chain refreshes it (the query
 * cache's rule); blocks and transactions by hash are fixed once loaded. The braid and the
 * chain page read the node's own endpoints; transactions, accounts, modules and search read
 * the explorer index (`/app/api/explorer/…`, docs/explorer-api.md) through the entries of
 * `endpoints.ts`.
 * @module
 */
import { queryOptions } from "@tanstack/react-query";
import { ClientErrorCode, type ClientResult } from "../../api/clientError.ts";
import { unwrap } from "../../api/clientFailure.ts";
import type { Decoded } from "../../api/decode.ts";
import { callEndpoint } from "../../api/endpoint.ts";
import type { NodeClient } from "../../api/nodeClient.ts";
import type { ChainStore } from "../../services/chainStore.ts";
import { queryKeys } from "../../services/queryClient.ts";
import { braidLoadFrom } from "./braid.ts";
import { explorerEndpoints } from "./endpoints.ts";
import { balanceCommand, parseBalanceResult } from "./wire/balance.ts";
import { type FullBlock, parseBlockPage } from "./wire/blocks.ts";
import {
  type BlockHeader,
  HEADER_OBJECT_ACCEPT,
  type Page,
  parseHeader,
  parseHeaderPage,
  parseInfoGraph,
} from "./wire/headers.ts";

/** Blocks a chain page shows at a time. */
export const CHAIN_PAGE_SIZE = 20;
/** Heights the braid shows. */
export const BRAID_ROWS = 8;

const hashList = (raw: unknown): Decoded<Page<string>> => {
  if (typeof raw !== "object" || raw === null || !Array.isArray((raw as { items?: unknown }).items))
    return { ok: false, error: "items: expected an array" };
  const items = (raw as { items: unknown[] }).items;
  return items.every((h) => typeof h === "string")
    ? { ok: true, value: { items: items as string[], next: null } }
    : { ok: false, error: "items: expected hashes" };
};

/** A 404 becomes `null` (the page says "not found"); other failures stay failures. */
async function orNotFound<T>(call: Promise<ClientResult<T>>): Promise<T | null> {
  const r = await call;
  if (!r.ok && r.error.code === ClientErrorCode.HttpStatus && r.error.status === 404) return null;
  return unwrap(Promise.resolve(r));
}

export function graphQuery(client: NodeClient) {
  return queryOptions({
    queryKey: ["explorer", "graph"],
    queryFn: () => unwrap(client.get("/info", parseInfoGraph)),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The headers near the top of one chain, for the braid (refreshed by every block of it). */
export function braidHeadersQuery(client: NodeClient, chain: ChainStore, chainId: number) {
  return queryOptions({
    queryKey: [...queryKeys.chain(chainId), "explorer", "braid"],
    queryFn: async (): Promise<readonly BlockHeader[]> => {
      const heads = chain.getSnapshot().heights.heads;
      const top = heads.reduce((m, h) => Math.max(m, h.height), 0);
      const from = braidLoadFrom(top, BRAID_ROWS);
      const page = await unwrap(
        client.get(`/chain/${chainId}/header?minheight=${from}`, parseHeaderPage, {
          accept: HEADER_OBJECT_ACCEPT,
        }),
      );
      return page.items;
    },
    placeholderData: (previous) => previous,
  });
}

/** One block by hash: its header, then the block at that height with that hash. */
export function blockQuery(client: NodeClient, chainId: number, hash: string) {
  return queryOptions({
    queryKey: ["explorer", "block", chainId, hash],
    queryFn: async (): Promise<FullBlock | null> => {
      const header = await orNotFound(
        client.get(`/chain/${chainId}/header/${hash}`, parseHeader, {
          accept: HEADER_OBJECT_ACCEPT,
        }),
      );
      if (header === null) return null;
      const h = header.height;
      const page = await unwrap(
        client.get(`/chain/${chainId}/block?minheight=${h}&maxheight=${h}`, parseBlockPage),
      );
      return page.items.find((b) => b.header.hash === hash) ?? null;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export type BlockPlace = {
  /** The best chain's block at this height (this block unless it is orphaned). */
  readonly bestAtHeight: string | null;
  /** Blocks on top of this one. */
  readonly children: readonly string[];
  /** The chain's head height when asked. */
  readonly headHeight: number;
};

/** Where a block stands now: on the best chain or orphaned, and what was built on it. */
export function blockPlaceQuery(
  client: NodeClient,
  chain: ChainStore,
  chainId: number,
  hash: string,
  height: number,
) {
  return queryOptions({
    queryKey: [...queryKeys.chain(chainId), "explorer", "place", hash],
    queryFn: async (): Promise<BlockPlace> => {
      const head = chain.getSnapshot().heights.heads.find((x) => x.chainId === chainId);
      if (head === undefined) return { bestAtHeight: null, children: [], headHeight: 0 };
      const best =
        head.height < height
          ? { items: [], next: null }
          : await unwrap(
              client.post(
                `/chain/${chainId}/hash/branch?minheight=${height}&maxheight=${height}&limit=1`,
                { upper: [head.hash] },
                hashList,
              ),
            );
      const children =
        head.height <= height
          ? []
          : (
              await unwrap(
                client.get(
                  `/chain/${chainId}/header?minheight=${height + 1}&maxheight=${height + 1}`,
                  parseHeaderPage,
                  { accept: HEADER_OBJECT_ACCEPT },
                ),
              )
            ).items
              .filter((c) => c.parent === hash)
              .map((c) => c.hash);
      return { bestAtHeight: best.items[0] ?? null, children, headHeight: head.height };
    },
  });
}

export type ChainBlocksPage = {
  /** The head the page walks down from (later pages keep it). */
  readonly upper: string;
  readonly blocks: readonly FullBlock[];
  readonly next: string | null;
};

/**
 * A page of a chain's best branch, newest first: from the live head (`head`, the chain's
 * newest block; undefined until the live cut has loaded: the query waits), or from a cursor.
 */
export function chainBlocksQuery(
  client: NodeClient,
  chainId: number,
  from: { readonly upper: string; readonly next: string } | null,
  head: string | undefined,
) {
  const upper = from?.upper ?? head;
  return queryOptions({
    // The first page is keyed by the head it starts from: a page opened before the live
    // cut loaded is fetched once the head is known, and each new block refreshes it.
    queryKey: ["explorer", "blocks", chainId, upper ?? null, from?.next ?? null],
    queryFn: async (): Promise<ChainBlocksPage | null> => {
      if (upper === undefined) return null;
      const cursor = from === null ? "" : `&next=${encodeURIComponent(from.next)}`;
      const page = await unwrap(
        client.post(
          `/chain/${chainId}/block/branch?limit=${CHAIN_PAGE_SIZE}${cursor}`,
          { upper: [upper] },
          parseBlockPage,
        ),
      );
      return { upper, blocks: page.items, next: page.next };
    },
    enabled: upper !== undefined,
    placeholderData: (previous) => previous,
    ...(from === null ? {} : { staleTime: Number.POSITIVE_INFINITY }),
  });
}

export function indexStatusQuery(client: NodeClient) {
  return queryOptions({
    queryKey: ["explorer", "index", "status"],
    queryFn: () => unwrap(callEndpoint(client, explorerEndpoints.status, {})),
    refetchInterval: (q) => (q.state.data?.state === "ready" ? 30_000 : 2000),
    retry: false,
  });
}

/** A transaction by request key; `null` when neither the index nor the mempool has it. */
export function transactionQuery(client: NodeClient, requestKey: string) {
  return queryOptions({
    queryKey: ["explorer", "index", "tx", requestKey],
    queryFn: () => orNotFound(callEndpoint(client, explorerEndpoints.transaction, { requestKey })),
    // Pending and unknown transactions are looked at again until they land.
    refetchInterval: (q) => (q.state.data?.status === "confirmed" ? false : 3000),
  });
}

export function accountQuery(client: NodeClient, account: string) {
  return queryOptions({
    queryKey: ["explorer", "index", "account", account],
    queryFn: () => orNotFound(callEndpoint(client, explorerEndpoints.account, { account })),
    refetchInterval: 10_000,
  });
}

export const TRANSFERS_PAGE_SIZE = 20;

export function transfersQuery(client: NodeClient, account: string, next: string | null) {
  return queryOptions({
    queryKey: ["explorer", "index", "transfers", account, next],
    queryFn: () =>
      unwrap(
        callEndpoint(client, explorerEndpoints.transfers, {
          account,
          limit: TRANSFERS_PAGE_SIZE,
          next: next ?? undefined,
        }),
      ),
    refetchInterval: next === null ? 10_000 : false,
    placeholderData: (previous) => previous,
  });
}

export function moduleQuery(client: NodeClient, name: string) {
  return queryOptions({
    queryKey: ["explorer", "index", "module", name],
    queryFn: () => orNotFound(callEndpoint(client, explorerEndpoints.module, { name })),
  });
}

export function searchQuery(client: NodeClient, text: string) {
  return queryOptions({
    queryKey: ["explorer", "index", "search", text],
    queryFn: () => unwrap(callEndpoint(client, explorerEndpoints.search, { q: text })),
  });
}

/** An account's balance and guard on one chain (refreshed by the chain's new blocks). */
export function balanceQuery(
  client: NodeClient,
  networkId: string,
  chainId: number,
  account: string,
) {
  return queryOptions({
    queryKey: [...queryKeys.chain(chainId), "explorer", "balance", account],
    queryFn: () =>
      unwrap(
        client.post(
          `/chain/${chainId}/pact/api/v1/local`,
          {
            ...balanceCommand(account, chainId, networkId, Math.floor(Date.now() / 1000)),
            sigs: [],
          },
          parseBalanceResult,
        ),
      ),
    placeholderData: (previous) => previous,
  });
}
