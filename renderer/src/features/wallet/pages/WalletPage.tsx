/**
 * The wallet (`#/wallet`), by the vault's state: the first-run choice (create or restore),
 * the unlock form, or the accounts and the keys; above them, once a wallet exists, whether
 * a fresh backup is due.
 * @module
 */

import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { AccountsHome } from "../accounts/AccountsHome.tsx";
import { BackupDueNotice } from "../backup/BackupDueNotice.tsx";
import { FirstRun } from "../components/FirstRun.tsx";
import { KeysPanel } from "../components/KeysPanel.tsx";
import { UnlockForm } from "../components/UnlockForm.tsx";
import { DappSigningSetting } from "../dapp/DappSigningSetting.tsx";
import { useVault } from "../vault/useVault.ts";

export function WalletPage() {
  const vault = useVault();
  return (
    <>
      <PageTitle>Wallet</PageTitle>
      <p className="lead">
        Your keys and accounts on every chain. The keys are encrypted with your password and used
        only inside this page.
      </p>
      {vault.loadError === null ? null : <ErrorMessage error={vault.loadError} />}
      {vault.state.status === "locked" || vault.state.status === "unlocked" ? (
        <BackupDueNotice />
      ) : null}
      {vault.state.status === "loading" ? (
        vault.loadError === null ? (
          <p>Loading the wallet…</p>
        ) : null
      ) : vault.state.status === "none" ? (
        <FirstRun />
      ) : vault.state.status === "locked" ? (
        <UnlockForm />
      ) : (
        <>
          <AccountsHome />
          <KeysPanel />
          <DappSigningSetting />
        </>
      )}
    </>
  );
}
