/**
 * The wallet (`#/wallet`), by the vault's state: the first-run choice (create or restore),
 * the unlock form, or the accounts and the keys; above them, once a wallet exists, whether
 * a fresh backup is due. From the unlock form ("I forgot my password") or the keys panel, the
 * wallet can be restored or replaced (`ReplaceWallet.tsx`); once it is, where the old file is
 * kept.
 * @module
 */
import { useState } from "react";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { AccountsHome } from "../accounts/AccountsHome.tsx";
import { BackupDueNotice } from "../backup/BackupDueNotice.tsx";
import { FirstRun } from "../components/FirstRun.tsx";
import { KeysPanel } from "../components/KeysPanel.tsx";
import { ReplaceWallet } from "../components/ReplaceWallet.tsx";
import { UnlockForm } from "../components/UnlockForm.tsx";
import { DappSigningSetting } from "../dapp/DappSigningSetting.tsx";
import { useVault } from "../vault/useVault.ts";

export function WalletPage() {
  const vault = useVault();
  const [replacing, setReplacing] = useState<"forgot" | "settings" | null>(null);
  const exists = vault.state.status === "locked" || vault.state.status === "unlocked";
  return (
    <>
      <PageTitle>Wallet</PageTitle>
      <p className="lead">
        Your keys and accounts on every chain. The keys are encrypted with your password and used
        only inside this page.
      </p>
      {vault.loadError === null ? null : <ErrorMessage error={vault.loadError} />}
      {exists ? <BackupDueNotice /> : null}
      {vault.replacedKeptAs === null || vault.state.status !== "unlocked" ? null : (
        <Notice tone="info" testId="wallet-replaced">
          <p>
            The wallet was replaced. The previous one's file is kept in the node's data folder as{" "}
            <code>{vault.replacedKeptAs}</code>.
          </p>
        </Notice>
      )}
      {vault.state.status === "loading" ? (
        vault.loadError === null ? (
          <p>Loading the wallet…</p>
        ) : null
      ) : vault.state.status === "none" ? (
        <FirstRun />
      ) : replacing !== null ? (
        <ReplaceWallet
          forgot={replacing === "forgot"}
          onCancel={() => setReplacing(null)}
          onReplaced={() => setReplacing(null)}
        />
      ) : vault.state.status === "locked" ? (
        <UnlockForm onForgot={() => setReplacing("forgot")} />
      ) : (
        <>
          <AccountsHome />
          <KeysPanel onReplace={() => setReplacing("settings")} />
          <DappSigningSetting />
        </>
      )}
    </>
  );
}
