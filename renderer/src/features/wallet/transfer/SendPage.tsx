/**
 * Sending coins (`#/wallet/send`): the transfer flow with the unlocked vault's keys as the
 * accounts that can send; while the wallet is locked or not set up, a pointer to the
 * wallet page (where it is unlocked or created). Below, the cross-chain transfers and their
 * states (`../crosschain/`).
 * @module
 */
import { Link } from "@tanstack/react-router";
import { Notice } from "../../../ui/Notice.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { PendingTransfers } from "../crosschain/PendingTransfers.tsx";
import { useVault } from "../vault/useVault.ts";
import { TransferFlow } from "./TransferFlow.tsx";

export function SendPage() {
  const vault = useVault();
  const { state } = vault;
  return (
    <>
      <PageTitle>Send</PageTitle>
      <p className="lead">
        Send coins from one of your accounts to another account, on the same chain or to another
        chain (the wallet finishes a cross-chain transfer by itself). You review exactly what your
        key signs before it is sent.
      </p>
      {state.status === "unlocked" ? (
        <TransferFlow
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
              ? "The wallet is locked: unlock it to send."
              : "There is no wallet yet: create or restore one first."}{" "}
            <Link to="/wallet">Go to the wallet</Link>
          </p>
        </Notice>
      )}
      {/* Shown locked or not: finishing a transfer needs no key. */}
      <PendingTransfers />
    </>
  );
}
