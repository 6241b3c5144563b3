/**
 * The pages that sign (Send, Sign a transaction, Multi-signature accounts) with the unlocked
 * vault's keys: their content gets the wallet's accounts and the vault's signature; while the
 * wallet loads, is locked or does not exist yet, a pointer to the wallet page (where it is
 * unlocked or created) says what is missing.
 * @module
 */
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { Notice } from "../../../ui/Notice.tsx";
import type { SigningAccount } from "../transfer/TransferFlow.tsx";
import { useVault } from "../vault/useVault.ts";

export type SignWithVault = (keyId: string, requestKey: string) => Promise<string>;

export function WithSigningKeys({
  action,
  children,
}: {
  /** What the locked wallet keeps from being done: "send", "sign", "create or send". */
  readonly action: string;
  readonly children: (accounts: readonly SigningAccount[], sign: SignWithVault) => ReactNode;
}) {
  const vault = useVault();
  const { state } = vault;
  if (state.status === "unlocked") {
    const accounts = state.keys.map((k) => ({
      keyId: k.id,
      account: k.account,
      publicKey: k.publicKey,
      label: k.label,
    }));
    return <>{children(accounts, (keyId, requestKey) => vault.sign(keyId, requestKey))}</>;
  }
  if (state.status === "loading") return <p>Loading the wallet…</p>;
  return (
    <Notice tone="info">
      <p>
        {state.status === "locked"
          ? `The wallet is locked: unlock it to ${action}.`
          : "There is no wallet yet: create or restore one first."}{" "}
        <Link to="/wallet">Go to the wallet</Link>
      </p>
    </Notice>
  );
}
