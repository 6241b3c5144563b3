/**
 * Sending coins (`#/wallet/send`, `?from=<account>` to start from one of them): the transfer
 * flow with the unlocked vault's keys as the accounts that can send; while the wallet is locked or not set up, a pointer to the
 * wallet page (where it is unlocked or created). Below, the cross-chain transfers and their
 * states (`../crosschain/`).
 * @module
 */
import { getRouteApi } from "@tanstack/react-router";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { WithSigningKeys } from "../components/WithSigningKeys.tsx";
import { PendingTransfers } from "../crosschain/PendingTransfers.tsx";
import { TransferFlow } from "./TransferFlow.tsx";

const route = getRouteApi("/wallet/send");

export function SendPage() {
  const { from } = route.useSearch();
  return (
    <>
      <PageTitle>Send</PageTitle>
      <p className="lead">
        Send coins from one of your accounts to another account, on the same chain or to another
        chain (the wallet finishes a cross-chain transfer by itself). You review exactly what your
        key signs before it is sent.
      </p>
      <WithSigningKeys action="send">
        {(accounts, sign) => <TransferFlow accounts={accounts} sign={sign} from={from} />}
      </WithSigningKeys>
      {/* Shown locked or not: finishing a transfer needs no key. */}
      <PendingTransfers />
    </>
  );
}
