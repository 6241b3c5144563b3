/**
 * The wallet's history (`#/wallet/history`): its own transactions newest first — time, kind
 * and chains, status (with the block), amount and fee, from and to — in a table that fits its
 * window from 400 px up (cells wrap; narrow, each row folds into lines), each linked to the explorer's transaction
 * page, a cross-chain transfer also to its Finish page with its state in words; "Add by request
 * key" (a transaction made elsewhere, read from the explorer's index); **Export CSV**. Needs no
 * key: the history is in `wallet/pending.json`, followed by the pending transfers' provider.
 * @module
 */
import { useMutation } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import type { HistoryEntry } from "../../../../../src-node/walletFiles/historyEntry.ts";
import { ClientErrorCode } from "../../../api/clientError.ts";
import { clientErrorOf, unwrap } from "../../../api/clientFailure.ts";
import { clientErrorWords, type ShownError } from "../../../api/errorWords.ts";
import { shortAccountName } from "../../../format/accountName.ts";
import { COIN_DECIMALS, formatAmount, unitsOfDecimalText } from "../../../format/amount.ts";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { type Column, DataTable } from "../../../ui/DataTable.tsx";
import { DateTime } from "../../../ui/DateTime.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { saveText } from "../../../ui/saveText.ts";
import { TextField } from "../../../ui/TextField.tsx";
import { walletCalls } from "../api.ts";
import { usePendingTransfers } from "../crosschain/PendingProvider.tsx";
import { stateText } from "../crosschain/pendingTransfer.ts";
import { historyCsv, historyCsvName } from "./historyCsv.ts";
import { chainsText, historyStatusText, kindText, sortHistory } from "./historyModel.ts";

/** A kept decimal ("1000000.5") as the wallet writes amounts ("1,000,000.5"); the CSV keeps it plain. */
function coinShown(decimal: string): string {
  const units = unitsOfDecimalText(decimal, COIN_DECIMALS);
  return units.ok ? formatAmount(units.value, COIN_DECIMALS) : decimal;
}

const KEY = /^[A-Za-z0-9_-]{43}$/;

function AddByRequestKey() {
  const { client } = useServices();
  const { history, recordHistory } = usePendingTransfers();
  const [keyText, setKeyText] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const lookUp = useMutation({
    mutationFn: (key: string) => unwrap(walletCalls.explorerTx(client, key, Date.now())),
    onSuccess: (entry) => {
      recordHistory(entry);
      setKeyText("");
    },
  });
  const lookUpProblem = (e: Error): ShownError => {
    const c = clientErrorOf(e);
    return c.code === ClientErrorCode.HttpStatus && c.status === 404
      ? "This node knows no transaction with this request key (yet): check the key, or wait for its block."
      : clientErrorWords(c);
  };
  const problem = invalid ?? (lookUp.error === null ? null : lookUpProblem(lookUp.error));
  const busy = lookUp.isPending;
  const add = () => {
    const key = keyText.trim();
    setInvalid(null);
    lookUp.reset();
    if (!KEY.test(key)) return setInvalid("A request key is 43 characters of base64url.");
    if (history.some((e) => e.requestKey === key)) {
      return setInvalid("This transaction is in the history already.");
    }
    lookUp.mutate(key);
  };
  return (
    <form
      className="lookup"
      onSubmit={(e) => {
        e.preventDefault();
        add();
      }}
    >
      <TextField label="Request key" value={keyText} onChange={setKeyText} error={problem} />
      <Button type="submit" isDisabled={busy}>
        Add to the history
      </Button>
    </form>
  );
}

export function HistoryPage() {
  const { config } = useServices();
  const { history, transfers, problem } = usePendingTransfers();
  const rows = sortHistory(history);
  const transferOf = (key: string) => transfers.find((t) => t.requestKey === key);

  const exportCsv = () =>
    saveText(historyCsv(rows), historyCsvName(config.networkId, new Date()), "text/csv");

  // Six columns that wrap, and fold into lines in a narrow window (DataTable's `fold`): the
  // chains go under the kind, the fee under the amount.
  const columns: Column<HistoryEntry>[] = [
    {
      header: "Time",
      cell: (e) => <DateTime ms={e.createdAt} />,
    },
    {
      header: "Transaction",
      cell: (e) => (
        <>
          {kindText(e)}
          <span className="cell-note">
            {e.targetChain === null || e.targetChain === e.chain ? "chain" : "chains"}{" "}
            {chainsText(e)}
          </span>
        </>
      ),
    },
    {
      header: "Status",
      testId: (e) => `history-status-${e.requestKey}`,
      cell: (e) => {
        const t = e.kind === "crosschain" ? transferOf(e.requestKey) : undefined;
        return (
          <>
            <span className="break-anywhere">{historyStatusText(e)}</span>
            {t === undefined ? null : <span className="cell-note">{stateText(t)}</span>}
          </>
        );
      },
    },
    {
      header: "Amount",
      numeric: true,
      cell: (e) => (
        <>
          {e.amount === null ? "—" : coinShown(e.amount)}
          {e.fee === null ? null : <span className="cell-note">fee {coinShown(e.fee)}</span>}
        </>
      ),
    },
    {
      header: "From → to",
      // Short names keep the table in the window; the full ones are in the title and the CSV.
      cell: (e) => (
        <span title={`${e.sender ?? "?"} → ${e.receiver ?? "?"}`}>
          <span className="nowrap">{e.sender === null ? "?" : shortAccountName(e.sender)}</span> →{" "}
          <span className="nowrap">{e.receiver === null ? "?" : shortAccountName(e.receiver)}</span>
        </span>
      ),
    },
    {
      header: "Links",
      cell: (e) => (
        <>
          <Link to="/explorer/tx/$requestKey" params={{ requestKey: e.requestKey }}>
            {e.requestKey.slice(0, 10)}… in the explorer
          </Link>
          {e.kind === "crosschain" || e.targetChain !== null ? (
            <span className="cell-note">
              <Link to="/wallet/finish/$requestKey" params={{ requestKey: e.requestKey }}>
                Finish page
              </Link>
            </span>
          ) : null}
        </>
      ),
    },
  ];

  return (
    <>
      <PageTitle>History</PageTitle>
      <p className="lead">
        The transactions of this wallet, newest first: sent from here, or added by request key.
      </p>
      {problem === null ? null : <ErrorMessage error={problem} />}
      <Panel
        id="wallet-history"
        title="Transactions"
        actions={
          <Button onPress={exportCsv} isDisabled={rows.length === 0}>
            Export CSV
          </Button>
        }
      >
        {rows.length === 0 ? (
          <p>No transaction yet.</p>
        ) : (
          <DataTable
            id="history-table"
            caption="The wallet's transactions, newest first"
            columns={columns}
            rows={rows}
            rowKey={(e) => e.requestKey}
            fold
          />
        )}
      </Panel>
      <Panel id="history-add" title="Add by request key">
        <p className="hint">A transaction made elsewhere: the explorer's index is asked for it.</p>
        <AddByRequestKey />
      </Panel>
    </>
  );
}
