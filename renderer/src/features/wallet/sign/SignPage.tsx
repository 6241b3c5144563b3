/**
 * Signing what others prepared (`#/wallet/sign`): the sign flow with the unlocked vault's
 * keys; while the wallet is locked or not set up, a pointer to the wallet page.
 * @module
 */
import { Link } from "@tanstack/react-router";
import { Notice } from "../../../ui/Notice.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { useVault } from "../vault/useVault.ts";
import { SignFlow } from "./SignFlow.tsx";

export function SignPage() {
  const vault = useVault();
  const { state } = vault;
  return (
    <>
      <PageTitle>Sign a transaction</PageTitle>
      <p className="lead">
        Sign a transaction someone prepared (with <code>weft -u</code>, a dapp or another wallet).
        You see exactly what it does before your keys sign it.
      </p>
      {state.status === "unlocked" ? (
        <SignFlow
          accounts={state.keys.map((k) => ({
            keyId: k.id,
            account: k.account,
            publicKey: k.publicKey,
            label: k.label,
          }))}
          sign={(keyId, requestKey) => vault.sign(keyId, requestKey)}
        />
      ) : state.status === "loading" ? (
        <p>Loading the wallet…</p>
      ) : (
        <Notice tone="info">
          <p>
            {state.status === "locked"
              ? "The wallet is locked: unlock it to sign."
              : "There is no wallet yet: create or restore one first."}{" "}
            <Link to="/wallet">Go to the wallet</Link>
          </p>
        </Notice>
      )}
    </>
  );
}
