/**
 * The dapps' signing requests for every page (docs/dapp-signing.md): the node holds each
 * request open and the page long-polls `GET /app/api/wallet/sign-requests` for the list (the
 * query `signRequestsQuery` of `../api.ts`; a node without the routes, or away, is asked again
 * after a pause); new requests open the review page `#/wallet/dapp`, whatever page is open,
 * once per burst (dappOnScreen.ts). The request on screen stays pinned until the user answers
 * it or moves on, so one its dapp withdraws is shown withdrawn rather than replaced by the
 * next. The review sends the answer (`answerSignRequestMutation`, the id being the request on
 * screen) and tells this provider when the node took it. Mounted once in `app/AppShell.tsx`.
 * @module
 */
import { useQuery } from "@tanstack/react-query";
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
import { routePaths } from "../../../app/routes.ts";
import { useServices } from "../../../services/services.tsx";
import { signRequestsQuery } from "../api.ts";
import {
  EMPTY_SCREEN,
  opensReview,
  type ReviewBurst,
  reduceDappScreen,
  type Shown,
  shownOf,
} from "./dappOnScreen.ts";

export type DappRequestsApi = {
  /** The request on screen (waiting, or how it stopped), or null when none waits. */
  readonly shown: Shown | null;
  /** The node took the user's answer to request `id` (the one on screen): the next one shows. */
  answered(id: string): void;
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

  const { data: list } = useQuery(signRequestsQuery(client));

  // Follows the long poll's answers (it fetches nothing): each new list goes to the screen,
  // and requests not seen before may open the review. An unchanged answer keeps the same
  // object (the query's structural sharing), so this runs once per change.
  useEffect(() => {
    if (list === undefined) return;
    dispatch({ type: "polled", list });
    const fresh = list.requests.filter((q) => !seen.current.has(q.id));
    for (const q of fresh) seen.current.add(q.id);
    if (fresh.length > 0) {
      const now = Date.now();
      const open = opensReview(burst.current, now);
      burst.current = { lastNewAt: now, answeredSince: false };
      if (open) void navigate({ to: routePaths.walletDapp });
    }
  }, [list, navigate]);

  const answered = useCallback((id: string) => {
    burst.current = { ...burst.current, answeredSince: true };
    dispatch({ type: "answered", id });
  }, []);

  const dismiss = useCallback(() => dispatch({ type: "dismissed" }), []);

  const value = useMemo(
    () => ({ shown: shownOf(screen), answered, dismiss }),
    [screen, answered, dismiss],
  );
  return <DappRequestsContext.Provider value={value}>{children}</DappRequestsContext.Provider>;
}
