/**
 * One account across all chains (`#/explorer/account/<name>`, h1 "Account"): its balance
 * and guard on each chain (read from the contract state with `/local`, refreshed by each
 * chain's new blocks), the total, and its transfers on every chain from the explorer
 * index, newest first, a page at a time.
 * @module
 */
import { useQueries, useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { accountNameProblem } from "../../../format/accountName.ts";
import { countOf } from "../../../format/number.ts";
import { useLiveChain, useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { DataTable } from "../../../ui/DataTable.tsx";
import { DateTime } from "../../../ui/DateTime.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { ErrorNotice } from "../../../ui/ErrorNotice.tsx";
import { Keyset } from "../../../ui/Keyset.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { accountQuery, balanceQuery, transfersQuery } from "../api.ts";
import { ExplorerFrame } from "../components/ExplorerFrame.tsx";
import { AccountLink } from "../components/TxParts.tsx";
import { usePageCursors } from "../hooks/usePageCursors.ts";
import { coinText, totalBalance } from "../model.ts";
import type { Transfer } from "../wire/index.ts";

const route = getRouteApi("/explorer/account/$name");

function Balances({ account }: { readonly account: string }) {
  const { client, config } = useServices();
  const { heights } = useLiveChain();
  const chains = heights.heads.map((h) => h.chainId);
  const results = useQueries({
    queries: chains.map((c) => balanceQuery(client, config.networkId, c, account)),
  });
  if (!heights.loaded) return <p className="state">Loading the chains…</p>;
  const rows = chains.map((chainId, i) => ({ chainId, q: results[i] }));
  const held = rows.flatMap((r) => (r.q?.data?.kind === "account" ? [r.q.data.balance] : []));
  const loading = rows.some((r) => r.q?.data === undefined && !r.q?.isError);
  return (
    <Panel id="balances" title="Balance on each chain">
      <p data-testid="account-total">
        Total: <strong>{totalBalance(held)}</strong> on {held.length} of {chains.length} chains
        {loading ? " (still loading some chains)" : ""}.
      </p>
      <DataTable
        id="balances-table"
        caption={`The account's balance and guard on each of the ${chains.length} chains`}
        rows={rows}
        rowKey={(r) => String(r.chainId)}
        columns={[
          {
            header: "Chain",
            cell: (r) => (
              <Link to="/explorer/chain/$chain" params={{ chain: String(r.chainId) }}>
                Chain {r.chainId}
              </Link>
            ),
          },
          {
            header: "Balance",
            numeric: true,
            testId: (r) => `balance-${r.chainId}`,
            cell: (r) =>
              r.q?.data === undefined
                ? r.q?.isError
                  ? "could not load"
                  : "loading…"
                : r.q.data.kind === "account"
                  ? coinText(r.q.data.balance)
                  : r.q.data.kind === "none"
                    ? "no account"
                    : "error",
          },
          {
            header: "Guard",
            cell: (r) =>
              r.q?.data?.kind === "account" ? (
                r.q.data.guard.kind === "keyset" ? (
                  <Keyset pred={r.q.data.guard.pred} keys={r.q.data.guard.keys} />
                ) : (
                  <code className="wrap">{r.q.data.guard.text}</code>
                )
              ) : r.q?.data?.kind === "failed" ? (
                <span className="bad">{r.q.data.message}</span>
              ) : r.q?.isError ? (
                <span className="bad">{clientErrorOf(r.q.error).code}</span>
              ) : (
                ""
              ),
          },
        ]}
        fold
      />
    </Panel>
  );
}

const parseCursor = (x: unknown): string | null => (typeof x === "string" && x !== "" ? x : null);

function Transfers({ account }: { readonly account: string }) {
  const { client } = useServices();
  const { cursors, older, newer } = usePageCursors(parseCursor);
  const page = useQuery(transfersQuery(client, account, cursors.at(-1) ?? null));
  const data = page.data;
  return (
    <Panel
      id="transfers"
      title={
        cursors.length === 0 ? "Transfers, newest first" : `Transfers, page ${cursors.length + 1}`
      }
      actions={
        <>
          <Button size="sm" isDisabled={cursors.length === 0} onPress={newer}>
            Newer
          </Button>
          <Button
            size="sm"
            isDisabled={data?.next == null}
            onPress={() => {
              const next = data?.next;
              if (next != null) older(next);
            }}
          >
            Older
          </Button>
        </>
      }
    >
      {page.isError && data === undefined ? (
        <ErrorNotice
          error={clientErrorOf(page.error)}
          what="the transfers"
          onRetry={() => void page.refetch()}
        />
      ) : data === undefined ? (
        <p className="state">Loading the transfers…</p>
      ) : data.items.length === 0 ? (
        <p data-testid="no-transfers">No transfers {cursors.length === 0 ? "" : "on this page"}.</p>
      ) : (
        <DataTable<Transfer>
          id="transfers-table"
          caption="Transfers to and from this account on every chain"
          rows={data.items}
          rowKey={(t) => `${t.requestKey}-${t.chain}-${t.from}-${t.to}-${t.amount}`}
          columns={[
            {
              header: "Time",
              cell: (t) => <DateTime ms={Math.floor(t.creationTime / 1000)} />,
            },
            {
              header: "Chain",
              numeric: true,
              cell: (t) => (
                <Link to="/explorer/chain/$chain" params={{ chain: String(t.chain) }}>
                  {t.chain}
                </Link>
              ),
            },
            {
              header: "Direction",
              cell: (t) =>
                t.direction === "out"
                  ? "sent to"
                  : t.direction === "in"
                    ? "received from"
                    : "to itself",
            },
            {
              header: "Other account",
              cell: (t) => {
                const other = t.direction === "in" ? t.from : t.to;
                if (other !== "") return <AccountLink name={other} short />;
                return t.crossChainPactId === null ? "none (new coins)" : "another chain";
              },
            },
            {
              header: "Amount",
              numeric: true,
              cell: (t) => `${coinText(t.amount)}${t.module === "coin" ? "" : ` (${t.module})`}`,
            },
            {
              header: "Transaction",
              cell: (t) => (
                <Link
                  to="/explorer/tx/$requestKey"
                  params={{ requestKey: t.crossChainPactId ?? t.requestKey }}
                >
                  <LongValue value={t.requestKey} what="request key" short copy={false} />
                </Link>
              ),
            },
          ]}
          fold
        />
      )}
    </Panel>
  );
}

export function AccountPage() {
  const { name } = route.useParams();
  const problem = accountNameProblem(name);
  const { client } = useServices();
  const seen = useQuery({ ...accountQuery(client, name), enabled: problem === null });
  return (
    <ExplorerFrame
      title="Account"
      lead="An account of the coin contract, on every chain of the network."
    >
      <Panel id="account" title="This account">
        <dl className="facts">
          <dt>Name</dt>
          <dd>
            <LongValue value={name} what="account name" testId="account-name" />
          </dd>
          {seen.data == null ? null : (
            <>
              <dt>Active on</dt>
              <dd>
                {seen.data.chains.length === 0 ? (
                  "no chain"
                ) : (
                  // One short item per chain, what happened there and nothing of what did not.
                  <ul className="inline-list" data-testid="account-active">
                    {seen.data.chains.map((c) => (
                      <li key={c.chain}>
                        Chain {c.chain}:{" "}
                        {[
                          c.transactions === 0 ? null : countOf(c.transactions, "transaction"),
                          c.transfers === 0 ? null : countOf(c.transfers, "transfer"),
                        ]
                          .filter((x) => x !== null)
                          .join(", ") || "seen"}
                      </li>
                    ))}
                  </ul>
                )}
              </dd>
            </>
          )}
        </dl>
        {seen.data === null ? (
          <p className="hint" data-testid="account-unseen">
            The index has seen no transaction or transfer of this account (not found); its balance
            is read from the chains below.
          </p>
        ) : null}
      </Panel>
      {problem === null ? (
        <>
          <Balances account={name} />
          <Transfers account={name} />
        </>
      ) : (
        <ErrorMessage error={problem} />
      )}
    </ExplorerFrame>
  );
}
