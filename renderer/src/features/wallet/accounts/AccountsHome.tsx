/**
 * The unlocked wallet's home: its keys' `k:` accounts. A minimal list until the accounts
 * feature (balances on every chain, watch-only accounts) replaces this file's content.
 * @module
 */
import { Link } from "@tanstack/react-router";
import { Panel } from "../../../ui/Panel.tsx";
import { useVault } from "../vault/useVault.ts";

export function AccountsHome() {
  const { state } = useVault();
  if (state.status !== "unlocked") return null;
  return (
    <Panel id="wallet-accounts" title="Accounts">
      <ul className="account-list">
        {state.keys.map((k) => (
          <li key={k.id}>
            <Link to="/wallet/account/$name" params={{ name: k.account }}>
              {k.label}: {k.account}
            </Link>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
