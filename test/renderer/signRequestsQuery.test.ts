/**
 * The dapps' signing requests as a long-polled query (renderer/src/features/wallet/api.ts
 * `signRequestsQuery`, docs/dapp-signing.md "The page's side"): the first poll asks for the
 * list, each next one sends the version it has (`since`) and starts as soon as the last one
 * ends; one poll at a time; a failed one is asked again after a pause, without `since`.
 * Driven by a real QueryObserver over the one client with a scripted fetch and fake timers.
 */
import { environmentManager, QueryObserver } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createNodeClient, type ResponseLike } from "../../renderer/src/api/nodeClient.ts";
import {
  SIGN_REQUESTS_RETRY_MS,
  signRequestsQuery,
} from "../../renderer/src/features/wallet/api.ts";
import { createAppQueryClient } from "../../renderer/src/services/queryClient.ts";

const list = (version: number, ids: string[] = []) => ({
  version,
  requests: ids.map((id) => ({
    id,
    kind: "quicksign",
    origin: "https://dapp.example",
    receivedAt: 1,
    expiresAt: 2,
    body: { cmdSigDatas: [] },
    text: null,
  })),
  ended: [],
});

const reply = (status: number, body: unknown): ResponseLike => ({
  ok: status >= 200 && status < 300,
  status,
  headers: { get: () => null },
  text: async () => JSON.stringify(body),
});

/** A fetch whose replies the test hands out one by one; `urls` lists what was asked. */
function scriptedFetch() {
  const urls: string[] = [];
  const waiting: ((r: ResponseLike) => void)[] = [];
  const fetch = (url: string) => {
    urls.push(url.replace("http://127.0.0.1:1848", ""));
    return new Promise<ResponseLike>((resolve) => waiting.push(resolve));
  };
  const answer = async (status: number, body: unknown) => {
    const next = waiting.shift();
    if (next === undefined) throw new Error("no poll is waiting");
    next(reply(status, body));
    // Let the client and the query settle, and the next interval be set.
    await vi.advanceTimersByTimeAsync(0);
  };
  return { urls, fetch, answer, waiting: () => waiting.length };
}

describe("[renderer] signRequestsQuery long-polls the dapps' requests", () => {
  let wasServer = true;
  beforeEach(() => {
    vi.useFakeTimers();
    // Node has no window: without this, TanStack Query sets no refetch timers.
    wasServer = environmentManager.isServer();
    environmentManager.setIsServer(() => false);
  });
  afterEach(() => {
    environmentManager.setIsServer(() => wasServer);
    vi.useRealTimers();
  });

  it("sends the version it has, one poll at a time, and after a failure waits, then asks afresh", async () => {
    const f = scriptedFetch();
    const client = createNodeClient({
      origin: "http://127.0.0.1:1848",
      basePath: "/ledger/0.0/development",
      fetch: f.fetch,
    });
    const queries = createAppQueryClient();
    const seen: number[] = [];
    const observer = new QueryObserver(queries, signRequestsQuery(client));
    const stop = observer.subscribe((r) => {
      if (r.data !== undefined && seen.at(-1) !== r.data.version) seen.push(r.data.version);
    });
    try {
      await vi.advanceTimersByTimeAsync(0);
      expect(f.urls).toEqual(["/app/api/wallet/sign-requests"]);

      await f.answer(200, list(3, ["a"]));
      await vi.advanceTimersByTimeAsync(5);
      expect(f.urls.at(-1)).toBe("/app/api/wallet/sign-requests?since=3");
      expect(seen).toEqual([3]);

      // While the node holds the poll open, no second one starts.
      await vi.advanceTimersByTimeAsync(5_000);
      expect(f.urls).toHaveLength(2);
      expect(f.waiting()).toBe(1);

      await f.answer(200, list(4, ["a", "b"]));
      await vi.advanceTimersByTimeAsync(5);
      expect(f.urls.at(-1)).toBe("/app/api/wallet/sign-requests?since=4");
      expect(seen).toEqual([3, 4]);

      // The node away: no retry at once, the next poll after the pause, without `since`.
      await f.answer(503, { code: "UNAVAILABLE", message: "restarting" });
      await vi.advanceTimersByTimeAsync(SIGN_REQUESTS_RETRY_MS - 100);
      expect(f.urls).toHaveLength(3);
      await vi.advanceTimersByTimeAsync(200);
      expect(f.urls).toHaveLength(4);
      expect(f.urls.at(-1)).toBe("/app/api/wallet/sign-requests");

      await f.answer(200, list(1, []));
      await vi.advanceTimersByTimeAsync(5);
      expect(f.urls.at(-1)).toBe("/app/api/wallet/sign-requests?since=1");
      expect(seen).toEqual([3, 4, 1]);
    } finally {
      stop();
      queries.clear();
    }
  });
});
