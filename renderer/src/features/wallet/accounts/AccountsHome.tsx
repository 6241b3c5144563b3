/**
 * The unlocked wallet's home (rendered by `WalletPage`): the vault keys' `k:` accounts and
 * the watch-only accounts kept in the wallet's settings, with balances on every chain.
 * @module
 */
import { useVault } from "../vault/useVault.ts";
import { AccountsView } from "./AccountsView.tsx";

export function AccountsHome() {
  const vault = useVault();
  const { state, walletSettings, saveWalletSettings } = vault;
  if (state.status !== "unlocked") return null;
  return (
    <AccountsView
      own={state.keys.map((k) => ({ account: k.account, label: k.label }))}
      watchOnly={walletSettings.watchOnly}
      onWatchOnlyChange={(watchOnly) => saveWalletSettings({ watchOnly })}
    />
  );
}
