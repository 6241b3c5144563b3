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
        own={state.keys.map((k) => ({ account: k.account, label: k.label }))}
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
