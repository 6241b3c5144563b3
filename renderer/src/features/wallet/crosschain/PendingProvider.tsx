/**
 * The wallet's pending cross-chain transfers for every page: loaded from the node's
 * `wallet/pending.json` when the app starts, driven forward without the user (one step of
 * each unfinished transfer every few seconds, `advancePending.ts`), and saved after every
 * change, saves running one after another. So a transfer resumes by itself after the app or
 * the node restarts: the file says where it stood, and every step is safe to repeat.
 * The same file and the same saves keep the wallet's history (its open entries polled on the
 * same tick, `../history/pollHistory.ts`) and its multi-signature accounts.
 * Mounted once in `app/AppShell.tsx`.
 * @module
 */
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
} from "react";
import {
  clientErrorWords,
  plainError,
  type ShownError,
  withLead,
} from "../../../api/errorWords.ts";
import { useServices } from "../../../services/services.tsx";
import { usePactClient } from "../accounts/useAccountsOnChains.ts";
import { capHistory, type HistoryEntry, recordEntry } from "../history/historyModel.ts";
import { pollHistory } from "../history/pollHistory.ts";
import type { MultisigAccount } from "../multisig/multisigAccount.ts";
import { type AdvanceDeps, advanceWithNode } from "./advancePending.ts";
import { parseWalletRecords, pendingFileOf } from "./pendingFile.ts";
import { advance, isActive, type PendingTransfer } from "./pendingTransfer.ts";

const TICK_MS = 3000;

export type PendingApi = {
  /** Newest first. */
  readonly transfers: readonly PendingTransfer[];
  readonly loaded: boolean;
  /** Loading or saving the file failed (shown; the transfers still advance in memory). */
  readonly problem: ShownError | null;
  /** Adds (or replaces, by request key) a transfer and starts driving it. */
  add(transfer: PendingTransfer): void;
  /** Retry of a transfer that needs attention. */
  retry(requestKey: string): void;
  /** The wallet's history, newest first. */
  readonly history: readonly HistoryEntry[];
  /** Records a transaction (merged by request key, `recordEntry`) and starts following it. */
  recordHistory(entry: HistoryEntry): void;
  /** The multi-signature accounts, newest first. */
  readonly multisigAccounts: readonly MultisigAccount[];
  /** Adds (or replaces, by name) a multi-signature account. */
  addMultisig(account: MultisigAccount): void;
  /**
   * The transfer the Send page sent last, until "Send another": kept here (the app's frame),
   * not in the page, so leaving the page and coming back shows its status again.
   */
  readonly lastSent: SentTransfer | null;
  setLastSent(sent: SentTransfer | null): void;
};

/** A transfer sent from the Send page: where to follow it. */
export type SentTransfer = { readonly chainId: number; readonly requestKey: string };

const PendingContext = createContext<PendingApi | null>(null);

export function usePendingTransfers(): PendingApi {
  const api = useContext(PendingContext);
  if (api === null) throw new Error("usePendingTransfers outside PendingProvider");
  return api;
}

function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function PendingProvider({ children }: { readonly children: ReactNode }) {
  const { client, config } = useServices();
  const pact = usePactClient();
  const [transfers, setTransfers] = useState<readonly PendingTransfer[]>([]);
  const [history, setHistory] = useState<readonly HistoryEntry[]>([]);
  const [multisigAccounts, setMultisig] = useState<readonly MultisigAccount[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [problem, setProblem] = useState<ShownError | null>(null);
  const [lastSent, setLastSent] = useState<SentTransfer | null>(null);
  // The lists the loop and the saves work from (state follows them).
  const list = useRef<readonly PendingTransfer[]>([]);
  const historyList = useRef<readonly HistoryEntry[]>([]);
  const multisigList = useRef<readonly MultisigAccount[]>([]);
  const saving = useRef<Promise<void>>(Promise.resolve());
  const busy = useRef(false);
  const wake = useRef<() => void>(() => {
    // No loop runs yet: the next one starts with a tick of its own.
  });

  const commit = useCallback(
    (next: readonly PendingTransfer[]) => {
      list.current = pendingFileOf(next).transfers;
      setTransfers(list.current);
      setHistory(historyList.current);
      setMultisig(multisigList.current);
      const file = pendingFileOf(list.current, {
        history: historyList.current,
        multisig: multisigList.current,
      });
      saving.current = saving.current.then(async () => {
        const r = await client.saveWalletPending(file);
        setProblem(
          r.ok
            ? null
            : withLead("The pending transfers were not saved.", clientErrorWords(r.error)),
        );
      });
    },
    [client],
  );

  useEffect(() => {
    let stopped = false;
    void (async () => {
      const r = await client.walletPending();
      if (stopped) return;
      if (!r.ok) {
        setProblem(withLead("The pending transfers could not be read.", clientErrorWords(r.error)));
      } else {
        const parsed = parseWalletRecords(r.value);
        if (parsed.ok) {
          // Records added meanwhile (a send during the load) are kept.
          const added = list.current;
          const keys = new Set(added.map((t) => t.requestKey));
          const merged = [
            ...added,
            ...parsed.value.transfers.filter((t) => !keys.has(t.requestKey)),
          ];
          const addedHistory = historyList.current;
          historyList.current = addedHistory.reduce(
            (all, e) => recordEntry(all, e),
            capHistory(parsed.value.history),
          );
          const names = new Set(multisigList.current.map((m) => m.account));
          multisigList.current = [
            ...multisigList.current,
            ...parsed.value.multisig.filter((m) => !names.has(m.account)),
          ];
          if (added.length > 0 || addedHistory.length > 0 || names.size > 0) commit(merged);
          else {
            list.current = merged;
            setTransfers(pendingFileOf(merged).transfers);
            setHistory(historyList.current);
            setMultisig(multisigList.current);
          }
        } else {
          setProblem(
            plainError(
              "The stored pending transfers are unreadable, so the wallet cannot finish them by itself. Finish a transfer by its request key on the Finish page.",
              parsed.error,
            ),
          );
        }
      }
      setLoaded(true);
    })();
    return () => {
      stopped = true;
    };
  }, [client, commit]);

  useEffect(() => {
    if (!loaded) return;
    const deps: AdvanceDeps = {
      pact,
      networkId: config.networkId,
      nowSeconds: () => Math.floor(Date.now() / 1000),
      randomSecret,
    };
    let stopped = false;
    const tick = async () => {
      if (busy.current || stopped) return;
      busy.current = true;
      try {
        for (const t of list.current.filter(isActive)) {
          const next = await advanceWithNode(t, deps);
          if (stopped) return;
          if (next !== t) {
            commit(list.current.map((x) => (x.requestKey === t.requestKey ? next : x)));
          }
        }
        const changed = await pollHistory(historyList.current, pact, deps.nowSeconds());
        if (stopped) return;
        if (changed.size > 0) {
          historyList.current = historyList.current.map((e) => changed.get(e.requestKey) ?? e);
          commit(list.current);
        }
      } finally {
        busy.current = false;
      }
    };
    wake.current = () => void tick();
    void tick();
    const timer = setInterval(() => void tick(), TICK_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
      wake.current = () => {
        // The loop stopped: there is nothing left to wake.
      };
    };
  }, [loaded, pact, config.networkId, commit]);

  const add = useCallback(
    (transfer: PendingTransfer) => {
      commit([transfer, ...list.current.filter((t) => t.requestKey !== transfer.requestKey)]);
      wake.current();
    },
    [commit],
  );
  const retry = useCallback(
    (requestKey: string) => {
      commit(
        list.current.map((t) => (t.requestKey === requestKey ? advance(t, { kind: "retry" }) : t)),
      );
      wake.current();
    },
    [commit],
  );

  const recordHistory = useCallback(
    (entry: HistoryEntry) => {
      historyList.current = recordEntry(historyList.current, entry);
      commit(list.current);
      wake.current();
    },
    [commit],
  );
  const addMultisig = useCallback(
    (account: MultisigAccount) => {
      multisigList.current = [
        account,
        ...multisigList.current.filter((m) => m.account !== account.account),
      ];
      commit(list.current);
    },
    [commit],
  );

  return (
    <PendingContext.Provider
      value={{
        transfers,
        loaded,
        problem,
        add,
        retry,
        history,
        recordHistory,
        multisigAccounts,
        addMultisig,
        lastSent,
        setLastSent,
      }}
    >
      {children}
    </PendingContext.Provider>
  );
}
