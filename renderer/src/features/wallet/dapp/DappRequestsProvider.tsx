/**
 * The dapps' signing requests for every page (docs/dapp-signing.md): the node holds each
 * request open and the page long-polls `GET /app/api/wallet/sign-requests` for the list; a
 * request that was not there before opens the review page `#/wallet/dapp`, whatever page is
 * open. Answers go back through `POST /app/api/wallet/sign-requests/:id`. A node without the
 * routes (or away) is asked again after a pause. Mounted once in `app/AppShell.tsx`.
 * @module
 */
import { useNavigate } from "@tanstack/react-router";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { decode, record } from "../../../api/decode.ts";
import { clientErrorWords, type ErrorWords } from "../../../api/errorWords.ts";
import { routePaths } from "../../../app/routes.ts";
import { useServices } from "../../../services/services.tsx";
import { type DappRequest, parseDappRequests } from "./dappRequests.ts";

/** Pause after a failed long-poll (node away, routes absent). */
const RETRY_MS = 5000;

export type DappRequestsApi = {
  /** Oldest first. */
  readonly requests: readonly DappRequest[];
  /**
   * Hands the user's answer to the waiting dapp.
   * @returns null, or why the node did not take it.
   */
  answer(id: string, answer: unknown): Promise<ErrorWords | null>;
};

const DappRequestsContext = createContext<DappRequestsApi | null>(null);

export function useDappRequests(): DappRequestsApi {
  const api = useContext(DappRequestsContext);
  if (api === null) throw new Error("useDappRequests outside DappRequestsProvider");
  return api;
}

export function DappRequestsProvider({ children }: { readonly children: ReactNode }) {
  const { client } = useServices();
  const navigate = useNavigate();
  const [requests, setRequests] = useState<readonly DappRequest[]>([]);
  const seen = useRef(new Set<string>());

  useEffect(() => {
    let stopped = false;
    let since: number | null = null;
    let pause: ReturnType<typeof setTimeout> | undefined;
    const loop = async () => {
      while (!stopped) {
        const r = await client.appGet(
          since === null ? "wallet/sign-requests" : `wallet/sign-requests?since=${since}`,
          parseDappRequests,
        );
        if (stopped) return;
        if (!r.ok) {
          since = null;
          await new Promise<void>((resolve) => {
            pause = setTimeout(resolve, RETRY_MS);
          });
          continue;
        }
        since = r.value.version;
        setRequests(r.value.requests);
        const fresh = r.value.requests.filter((q) => !seen.current.has(q.id));
        for (const q of fresh) seen.current.add(q.id);
        if (fresh.length > 0) void navigate({ to: routePaths.walletDapp });
      }
    };
    void loop();
    return () => {
      stopped = true;
      clearTimeout(pause);
    };
  }, [client, navigate]);

  const answer = useCallback(
    async (id: string, body: unknown): Promise<ErrorWords | null> => {
      const r = await client.appPost(
        `wallet/sign-requests/${encodeURIComponent(id)}`,
        body,
        (raw) => decode(raw, (x) => record(x, "answer")),
      );
      if (!r.ok) return clientErrorWords(r.error);
      setRequests((list) => list.filter((q) => q.id !== id));
      return null;
    },
    [client],
  );

  const value = useMemo(() => ({ requests, answer }), [requests, answer]);
  return <DappRequestsContext.Provider value={value}>{children}</DappRequestsContext.Provider>;
}
