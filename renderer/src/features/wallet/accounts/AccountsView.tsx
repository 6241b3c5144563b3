/**
 * The wallet home's accounts (rendered by `AccountsHome` with the vault's keys): the keys'
 * `k:` accounts and, apart, the watch-only accounts (no signing; added by name), each with
 * its balance on every chain and the total, live from one batched read per chain.
 * @module
 */
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { accountNameProblem, shortAccountName } from "../../../format/accountName.ts";
import { Button } from "../../../ui/Button.tsx";
import { ErrorNotice } from "../../../ui/ErrorNotice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { BalancesTable } from "./BalancesTable.tsx";
import { balanceTable } from "./balanceTable.ts";
import { useAccountsOnChains } from "./useAccountsOnChains.ts";

export type OwnAccount = { readonly account: string; readonly label: string };

export type AccountsViewProps = {
  readonly own: readonly OwnAccount[];
  readonly watchOnly: readonly string[];
  /** Adds or removes a watch-only account; rejects with a message on failure. */
  readonly onWatchOnlyChange: (next: readonly string[]) => Promise<void>;
};

export function AccountsView({ own, watchOnly, onWatchOnlyChange }: AccountsViewProps) {
  const navigate = useNavigate();
  const ownNames = own.map((o) => o.account);
  const names = [...new Set([...ownNames, ...watchOnly])];
  const chains = useAccountsOnChains(names);
  const table = balanceTable(names, chains);
  const rowOf = new Map(table.map((r) => [r.account, r]));
  const labelOf = new Map(own.map((o) => [o.account, o.label]));
  const rows = (list: readonly string[]) =>
    list.flatMap((a) => {
      const r = rowOf.get(a);
      return r === undefined ? [] : [{ ...r, label: labelOf.get(a) ?? "" }];
    });
  const chainIds = chains.map((c) => c.chainId);
  const failed = chains.find((c) => c.error !== null);

  const [watchName, setWatchName] = useState("");
  const [watchError, setWatchError] = useState<string | null>(null);
  const addWatch = async () => {
    const name = watchName.trim();
    const problem = accountNameProblem(name);
    if (problem !== null) return setWatchError(problem);
    if (names.includes(name)) return setWatchError("This account is in the wallet already.");
    try {
      await onWatchOnlyChange([...watchOnly, name]);
      setWatchName("");
      setWatchError(null);
    } catch (e) {
      setWatchError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <>
      <Panel
        id="wallet-accounts"
        title="Your accounts"
        actions={
          <>
            <Button tone="primary" onPress={() => void navigate({ to: "/wallet/send" })}>
              Send
            </Button>
            <Button onPress={() => void navigate({ to: "/wallet/sign" })}>
              Sign a transaction
            </Button>
            <Button onPress={() => void navigate({ to: "/wallet/multisig" })}>
              Multi-signature
            </Button>
            <Button onPress={() => void navigate({ to: "/wallet/history" })}>History</Button>
          </>
        }
      >
        {failed === undefined ? null : (
          <ErrorNotice
            error={clientErrorOf(failed.error)}
            what={`the balances on chain ${failed.chainId}`}
            onRetry={failed.refetch}
          />
        )}
        {own.length === 0 ? (
          <p>No keys yet: add or import a key to get an account.</p>
        ) : (
          <BalancesTable
            id="own-balances"
            caption="Balances of your accounts on each chain (— not created yet)"
            rows={rows(ownNames)}
            chains={chainIds}
          />
        )}
      </Panel>
      <Panel id="wallet-watch-only" title="Watch-only accounts">
        <p className="hint">
          Accounts you follow without their keys: the wallet cannot sign for them.
        </p>
        {watchOnly.length === 0 ? null : (
          <>
            <BalancesTable
              id="watch-balances"
              caption="Balances of watch-only accounts on each chain"
              rows={rows(watchOnly)}
              chains={chainIds}
            />
            <ul className="watch-list">
              {watchOnly.map((a) => (
                <li key={a}>
                  <Button
                    size="sm"
                    tone="quiet"
                    aria-label={`Stop watching ${a}`}
                    onPress={() => void onWatchOnlyChange(watchOnly.filter((w) => w !== a))}
                  >
                    Stop watching {shortAccountName(a)}
                  </Button>
                </li>
              ))}
            </ul>
          </>
        )}
        <form
          className="lookup"
          onSubmit={(e) => {
            e.preventDefault();
            void addWatch();
          }}
        >
          <TextField
            label="Watch-only account"
            value={watchName}
            onChange={(v) => {
              setWatchName(v);
              setWatchError(null);
            }}
            error={watchError}
          />
          <Button type="submit">Watch</Button>
        </form>
      </Panel>
    </>
  );
}
