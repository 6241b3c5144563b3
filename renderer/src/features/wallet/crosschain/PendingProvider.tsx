/**
 * The wallet's pending cross-chain transfers for every page: loaded from the node's
 * `wallet/pending.json` when the app starts (`walletRecordsQuery`), driven forward without the
 * user (one step of each unfinished transfer every few seconds, `advancePending.ts`, as the
 * polled `recordsStepQuery`), and saved after every change (`saveRecordsMutation`, saves
 * running one after another). So a transfer resumes by itself after the app or
 * the node restarts: the file says where it stood, and every step is safe to repeat.
 * The same file and the same saves keep the wallet's history (its open entries polled on the
 * same tick, `../history/pollHistory.ts`) and its multi-signature accounts.
 * Mounted once in `app/AppShell.tsx`.
 * @module
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
} from "react";
import type { HistoryEntry } from "../../../../../src-node/walletFiles/historyEntry.ts";
import type { MultisigAccount } from "../../../../../src-node/walletFiles/multisigAccount.ts";
import type { PendingTransfer } from "../../../../../src-node/walletFiles/pendingFile.ts";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import {
  clientErrorWords,
  plainError,
  type ShownError,
  withLead,
} from "../../../api/errorWords.ts";
import { useServices } from "../../../services/services.tsx";
import { recordsStepQuery, saveRecordsMutation, walletKeys, walletRecordsQuery } from "../api.ts";
import { capHistory, recordEntry } from "../history/historyModel.ts";
import { pollHistory } from "../history/pollHistory.ts";
import { type AdvanceDeps, advanceWithNode } from "./advancePending.ts";
import { pendingFileOf } from "./pendingFile.ts";
import { advance, isActive } from "./pendingTransfer.ts";

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
  const { client, config, pact } = useServices();
  const queries = useQueryClient();
  const [transfers, setTransfers] = useState<readonly PendingTransfer[]>([]);
  const [history, setHistory] = useState<readonly HistoryEntry[]>([]);
  const [multisigAccounts, setMultisig] = useState<readonly MultisigAccount[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [problem, setProblem] = useState<ShownError | null>(null);
  const [lastSent, setLastSent] = useState<SentTransfer | null>(null);
  // The lists the driver and the saves work from (state follows them).
  const list = useRef<readonly PendingTransfer[]>([]);
  const historyList = useRef<readonly HistoryEntry[]>([]);
  const multisigList = useRef<readonly MultisigAccount[]>([]);
  const busy = useRef(false);

  const save = useMutation({
    ...saveRecordsMutation(client),
    onSuccess: () => setProblem(null),
    onError: (e) =>
      setProblem(
        withLead("The pending transfers were not saved.", clientErrorWords(clientErrorOf(e))),
      ),
  });
  const saveFile = save.mutate;

  const commit = useCallback(
    (next: readonly PendingTransfer[]) => {
      list.current = pendingFileOf(next).transfers;
      setTransfers(list.current);
      setHistory(historyList.current);
      setMultisig(multisigList.current);
      saveFile(
        pendingFileOf(list.current, {
          history: historyList.current,
          multisig: multisigList.current,
        }),
      );
    },
    [saveFile],
  );

  // The stored records, merged once with what was added while they were read (a send during
  // the load); a failed or unreadable read is said, and the lists start empty.
  const stored = useQuery(walletRecordsQuery(client));
  const merged = useRef(false);
  useEffect(() => {
    if (merged.current) return;
    if (stored.data === undefined) {
      if (stored.error === null) return;
      merged.current = true;
      setProblem(
        withLead(
          "The pending transfers could not be read.",
          clientErrorWords(clientErrorOf(stored.error)),
        ),
      );
      setLoaded(true);
      return;
    }
    merged.current = true;
    const parsed = stored.data;
    if (parsed.ok) {
      const added = list.current;
      const keys = new Set(added.map((t) => t.requestKey));
      const all = [...added, ...parsed.value.transfers.filter((t) => !keys.has(t.requestKey))];
      const addedHistory = historyList.current;
      historyList.current = addedHistory.reduce(
        (entries, e) => recordEntry(entries, e),
        capHistory(parsed.value.history),
      );
      const names = new Set(multisigList.current.map((m) => m.account));
      multisigList.current = [
        ...multisigList.current,
        ...parsed.value.multisig.filter((m) => !names.has(m.account)),
      ];
      if (added.length > 0 || addedHistory.length > 0 || names.size > 0) commit(all);
      else {
        list.current = all;
        setTransfers(pendingFileOf(all).transfers);
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
    setLoaded(true);
  }, [stored.data, stored.error, commit]);

  // One step of every unfinished transfer, then one look at the open history entries.
  const step = async (signal: AbortSignal): Promise<number> => {
    if (busy.current) return 0;
    busy.current = true;
    const deps: AdvanceDeps = {
      pact,
      networkId: config.networkId,
      nowSeconds: () => Math.floor(Date.now() / 1000),
      randomSecret,
    };
    let changes = 0;
    try {
      for (const t of list.current.filter(isActive)) {
        const next = await advanceWithNode(t, deps);
        if (signal.aborted) return changes;
        if (next !== t) {
          changes += 1;
          commit(list.current.map((x) => (x.requestKey === t.requestKey ? next : x)));
        }
      }
      const changed = await pollHistory(historyList.current, pact, deps.nowSeconds());
      if (signal.aborted) return changes;
      if (changed.size > 0) {
        changes += changed.size;
        historyList.current = historyList.current.map((e) => changed.get(e.requestKey) ?? e);
        commit(list.current);
      }
      return changes;
    } finally {
      busy.current = false;
    }
  };
  useQuery({ ...recordsStepQuery(step), enabled: loaded });
  /** A step now (joining one that runs), not a few seconds later. */
  const wake = useCallback(() => {
    void queries.refetchQueries({ queryKey: walletKeys.recordsStep }, { cancelRefetch: false });
  }, [queries]);

  const add = useCallback(
    (transfer: PendingTransfer) => {
      commit([transfer, ...list.current.filter((t) => t.requestKey !== transfer.requestKey)]);
      wake();
    },
    [commit, wake],
  );
  const retry = useCallback(
    (requestKey: string) => {
      commit(
        list.current.map((t) => (t.requestKey === requestKey ? advance(t, { kind: "retry" }) : t)),
      );
      wake();
    },
    [commit, wake],
  );

  const recordHistory = useCallback(
    (entry: HistoryEntry) => {
      historyList.current = recordEntry(historyList.current, entry);
      commit(list.current);
      wake();
    },
    [commit, wake],
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
