/**
 * Accounts with their balance on each chain and the total, as a table (one row per account;
 * in a narrow window each row folds into lines, the chains' balances two to a line); an
 * account's name links to its page, and what the wallet calls it (its key's label) is a
 * note under the name, so the link's text is the account it opens.
 * @module
 */
import { Link } from "@tanstack/react-router";
import { shortAccountName } from "../../../format/accountName.ts";
import { COIN_DECIMALS, formatAmount } from "../../../format/amount.ts";
import { type Column, DataTable } from "../../../ui/DataTable.tsx";
import type { AccountBalances } from "./balanceTable.ts";

export type BalanceRow = AccountBalances & { readonly label: string };

function amountText(units: bigint | null | undefined): string {
  if (units === undefined) return "…";
  if (units === null) return "—";
  return formatAmount(units, COIN_DECIMALS);
}

export function BalancesTable({
  id,
  caption,
  rows,
  chains,
}: {
  readonly id: string;
  readonly caption: string;
  readonly rows: readonly BalanceRow[];
  readonly chains: readonly number[];
}) {
  const columns: Column<BalanceRow>[] = [
    {
      header: "Account",
      cell: (r) => (
        <>
          <Link to="/wallet/account/$name" params={{ name: r.account }} title={r.account}>
            {shortAccountName(r.account)}
          </Link>
          {r.label === "" ? null : <span className="cell-note">{r.label}</span>}
        </>
      ),
    },
    {
      header: "Total",
      numeric: true,
      cell: (r) => `${formatAmount(r.total, COIN_DECIMALS)}${r.complete ? "" : " …"}`,
      testId: (r) => `total-${r.account}`,
    },
    ...chains.map(
      (c): Column<BalanceRow> => ({
        header: `Chain ${c}`,
        numeric: true,
        cell: (r) => amountText(r.byChain.get(c)),
        testId: (r) => `balance-${r.account}-${c}`,
      }),
    ),
  ];
  return (
    <DataTable
      id={id}
      caption={caption}
      columns={columns}
      rows={rows}
      rowKey={(r) => r.account}
      className="balances"
      fold
    />
  );
}
