/**
 * The dapps' signing requests for every page (docs/dapp-signing.md): the node holds each
 * request open and the page long-polls `GET /app/api/wallet/sign-requests` for the list; new
 * requests open the review page `#/wallet/dapp`, whatever page is open, once per burst
 * (dappOnScreen.ts). The request on screen stays pinned until the user answers it or moves on,
 * so one its dapp withdraws is shown withdrawn rather than replaced by the next. Answers go
 * back through `POST /app/api/wallet/sign-requests/:id`, the id being the request on screen. A
 * node without the routes (or away) is asked again after a pause. Mounted once in
 * `app/AppShell.tsx`.
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
  useReducer,
  useRef,
} from "react";
import { decode, record } from "../../../api/decode.ts";
import { clientErrorWords, type ErrorWords } from "../../../api/errorWords.ts";
import { routePaths } from "../../../app/routes.ts";
import { useServices } from "../../../services/services.tsx";
import {
  EMPTY_SCREEN,
  opensReview,
  type ReviewBurst,
  reduceDappScreen,
  type Shown,
  shownOf,
} from "./dappOnScreen.ts";
import { parseDappRequests } from "./dappRequests.ts";

/** Pause after a failed long-poll (node away, routes absent). */
const RETRY_MS = 5000;

export type DappRequestsApi = {
  /** The request on screen (waiting, or how it stopped), or null when none waits. */
  readonly shown: Shown | null;
  /**
   * Hands the user's answer to request `id`'s dapp (the one on screen), and no other.
   * @returns null, or why the node did not take it.
   */
  answer(id: string, answer: unknown): Promise<ErrorWords | null>;
  /** Moves on from a request on screen that stopped waiting. */
  dismiss(): void;
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
  const [screen, dispatch] = useReducer(reduceDappScreen, EMPTY_SCREEN);
  const seen = useRef(new Set<string>());
  const burst = useRef<ReviewBurst>({ lastNewAt: null, answeredSince: false });

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
        dispatch({ type: "polled", list: r.value });
        const fresh = r.value.requests.filter((q) => !seen.current.has(q.id));
        for (const q of fresh) seen.current.add(q.id);
        if (fresh.length > 0) {
          const now = Date.now();
          const open = opensReview(burst.current, now);
          burst.current = { lastNewAt: now, answeredSince: false };
          if (open) void navigate({ to: routePaths.walletDapp });
        }
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
      burst.current = { ...burst.current, answeredSince: true };
      dispatch({ type: "answered", id });
      return null;
    },
    [client],
  );

  const dismiss = useCallback(() => dispatch({ type: "dismissed" }), []);

  const value = useMemo(
    () => ({ shown: shownOf(screen), answer, dismiss }),
    [screen, answer, dismiss],
  );
  return <DappRequestsContext.Provider value={value}>{children}</DappRequestsContext.Provider>;
}
