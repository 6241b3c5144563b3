/**
 * Multi-signature accounts (`#/wallet/multisig`): create one (`CreateMultisig`), the wallet's
 * multi-signature accounts with their balance on every chain (the same batched reads as the
 * other accounts), and a transfer from one (`MultisigTransfer`) signed here and passed on for
 * the other signatures. Creating and sending need the unlocked vault; the list does not.
 * @module
 */
import type { MultisigAccount } from "../../../../../src-node/walletFiles/multisigAccount.ts";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { BalancesTable } from "../accounts/BalancesTable.tsx";
import { balanceTable } from "../accounts/balanceTable.ts";
import { useAccountsOnChains } from "../accounts/useAccountsOnChains.ts";
import { WithSigningKeys } from "../components/WithSigningKeys.tsx";
import { usePendingTransfers } from "../crosschain/PendingProvider.tsx";
import { CreateMultisig } from "./CreateMultisig.tsx";
import { MultisigTransfer } from "./MultisigTransfer.tsx";
import { describePred } from "./multisigAccount.ts";

/** The multi-signature accounts with their balances (also on the wallet home). */
export function MultisigBalances({ multisig }: { readonly multisig: readonly MultisigAccount[] }) {
  const names = multisig.map((m) => m.account);
  const chains = useAccountsOnChains(names);
  const table = balanceTable(names, chains);
  if (multisig.length === 0) return null;
  return (
    <>
      <BalancesTable
        id="multisig-balances"
        caption="Balances of multi-signature accounts on each chain"
        rows={table.map((r) => {
          const m = multisig.find((x) => x.account === r.account);
          return {
            ...r,
            label: m === undefined ? "" : `${m.pred}, ${m.keys.length} keys`,
          };
        })}
        chains={chains.map((c) => c.chainId)}
      />
      <ul className="plain-list">
        {multisig.map((m) => (
          <li key={m.account}>
            <code>{m.account}</code>: {describePred(m.pred, m.keys.length)} —{" "}
            {m.keys.map((k) => `${k.slice(0, 8)}…`).join(", ")}; created on chain
            {m.chains.length === 1 ? "" : "s"} {m.chains.join(", ")}
          </li>
        ))}
      </ul>
    </>
  );
}

export function MultisigPage() {
  const { multisigAccounts } = usePendingTransfers();
  return (
    <>
      <PageTitle>Multi-signature accounts</PageTitle>
      <p className="lead">
        Accounts guarded by several keys: all of them, any one, or any two must sign. A transfer is
        signed here with the keys this wallet holds, then passed on to the other signers.
      </p>
      <Panel id="multisig-accounts" title="Your multi-signature accounts">
        {multisigAccounts.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <MultisigBalances multisig={multisigAccounts} />
        )}
      </Panel>
      <WithSigningKeys action="create or send">
        {(accounts, sign) => (
          <>
            <CreateMultisig accounts={accounts} sign={sign} />
            <MultisigTransfer multisig={multisigAccounts} accounts={accounts} sign={sign} />
          </>
        )}
      </WithSigningKeys>
    </>
  );
}
