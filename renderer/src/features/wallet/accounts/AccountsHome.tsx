/**
 * The unlocked wallet's home (rendered by `WalletPage`): the vault keys' `k:` accounts and
 * the watch-only accounts kept in the wallet's settings, with balances on every chain, and the
 * multi-signature accounts (`../multisig/`) watched the same way.
 * @module
 */
import { Link } from "@tanstack/react-router";
import { Panel } from "../../../ui/Panel.tsx";
import { usePendingTransfers } from "../crosschain/PendingProvider.tsx";
import { MultisigBalances } from "../multisig/MultisigPage.tsx";
import { useVault } from "../vault/useVault.ts";
import { AccountsView } from "./AccountsView.tsx";

export function AccountsHome() {
  const vault = useVault();
  const { state, walletSettings, saveWalletSettings } = vault;
  const { multisigAccounts } = usePendingTransfers();
  if (state.status !== "unlocked") return null;
  return (
    <>
      <AccountsView
        own={state.keys.map((k) => ({
          account: k.account,
          // A test key is named after the published account it comes from ("sender00"); the
          // account shown is the key's own k: account, not that one.
          label: k.source === "test-account" ? `the key of ${k.label} (test account)` : k.label,
        }))}
        watchOnly={walletSettings.watchOnly}
        onWatchOnlyChange={(watchOnly) => saveWalletSettings({ watchOnly })}
      />
      {multisigAccounts.length === 0 ? null : (
        <Panel id="wallet-multisig" title="Multi-signature accounts">
          <MultisigBalances multisig={multisigAccounts} />
          <p>
            <Link to="/wallet/multisig">Create one, or send from one</Link>
          </p>
        </Panel>
      )}
    </>
  );
}
