/**
 * One account (`#/wallet/account/<name>`): its kind, and on every chain its balance and
 * guard (keyset keys and predicate), or "not created yet"; read with one batched `/local`
 * per chain and refreshed when blocks land.
 * @module
 */
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { accountNameProblem } from "../../../format/accountName.ts";
import { COIN_DECIMALS, formatAmount } from "../../../format/amount.ts";
import { Button } from "../../../ui/Button.tsx";
import { type Column, DataTable } from "../../../ui/DataTable.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { ErrorNotice } from "../../../ui/ErrorNotice.tsx";
import { Keyset } from "../../../ui/Keyset.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { accountKind, describeAccountKind } from "../model.ts";
import type { AccountGuard } from "./accountDetails.ts";
import { balanceTable } from "./balanceTable.ts";
import { useAccountsOnChains } from "./useAccountsOnChains.ts";

const route = getRouteApi("/wallet/account/$name");

type ChainRow = {
  readonly chainId: number;
  readonly state: "loading" | "absent" | "present";
  readonly balance: bigint;
  readonly guard: AccountGuard | null;
};

function AccountChains({ name }: { readonly name: string }) {
  const chains = useAccountsOnChains([name]);
  const [totals] = balanceTable([name], chains);
  const rows: ChainRow[] = chains.map((c) => {
    const on = c.accounts?.[0];
    if (on === undefined) return { chainId: c.chainId, state: "loading", balance: 0n, guard: null };
    return on.exists
      ? { chainId: c.chainId, state: "present", balance: on.balance, guard: on.guard }
      : { chainId: c.chainId, state: "absent", balance: 0n, guard: null };
  });
  const failed = chains.find((c) => c.error !== null);
  const columns: Column<ChainRow>[] = [
    { header: "Chain", cell: (r) => String(r.chainId) },
    {
      header: "Balance",
      numeric: true,
      testId: (r) => `balance-${r.chainId}`,
      cell: (r) =>
        r.state === "loading"
          ? "…"
          : r.state === "absent"
            ? "not created yet"
            : formatAmount(r.balance, COIN_DECIMALS),
    },
    {
      header: "Guard",
      testId: (r) => `guard-${r.chainId}`,
      cell: (r) =>
        r.guard === null ? (
          ""
        ) : r.guard.kind === "keyset" ? (
          <Keyset pred={r.guard.pred} keys={r.guard.keys} />
        ) : (
          <code className="break-anywhere">{r.guard.json}</code>
        ),
    },
  ];
  return (
    <Panel id="account-chains" title="On each chain">
      {failed === undefined ? null : (
        <ErrorNotice
          error={clientErrorOf(failed.error)}
          what={`the account on chain ${failed.chainId}`}
          onRetry={failed.refetch}
        />
      )}
      <p>
        Total:{" "}
        <strong data-testid="account-total">
          {totals === undefined ? "…" : formatAmount(totals.total, COIN_DECIMALS)}
          {totals?.complete === false ? " …" : ""}
        </strong>
      </p>
      <DataTable
        id="account-chain-table"
        caption="Balance and guard on each chain"
        columns={columns}
        rows={rows}
        rowKey={(r) => String(r.chainId)}
        fold
      />
    </Panel>
  );
}

export function WalletAccountPage() {
  const { name } = route.useParams();
  const navigate = useNavigate();
  const problem = accountNameProblem(name);
  return (
    <>
      <PageTitle>Wallet account</PageTitle>
      <p className="lead">One of your accounts: its balance and guard on each chain.</p>
      {problem === null ? null : <ErrorMessage error={problem} />}
      <Panel
        id="wallet-account"
        title="This account"
        actions={
          <Button
            tone="primary"
            onPress={() => void navigate({ to: "/wallet/send", search: { from: name } })}
          >
            Send
          </Button>
        }
      >
        <dl className="facts">
          <dt>Name</dt>
          <dd>
            <LongValue value={name} what="account name" testId="account-name" />
          </dd>
          <dt>Kind</dt>
          <dd data-testid="account-kind">{describeAccountKind(accountKind(name))}</dd>
        </dl>
        <p>
          <Link to="/explorer/account/$name" params={{ name }}>
            See this account in the explorer
          </Link>
          {" · "}
          {/* A cross-chain transfer to or from it that stopped half-way is finished there. */}
          <Link to="/wallet/finish/$requestKey" params={{ requestKey: "-" }}>
            Finish a transfer
          </Link>
        </p>
      </Panel>
      {problem === null ? <AccountChains name={name} /> : null}
    </>
  );
}
