/**
 * Sending coins (`#/wallet/send`): the transfer flow with the unlocked vault's keys as the
 * accounts that can send; while the wallet is locked or not set up, a pointer to the
 * wallet page (where it is unlocked or created). Below, the cross-chain transfers and their
 * states (`../crosschain/`).
 * @module
 */
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { WithSigningKeys } from "../components/WithSigningKeys.tsx";
import { PendingTransfers } from "../crosschain/PendingTransfers.tsx";
import { TransferFlow } from "./TransferFlow.tsx";

export function SendPage() {
  return (
    <>
      <PageTitle>Send</PageTitle>
      <p className="lead">
        Send coins from one of your accounts to another account, on the same chain or to another
        chain (the wallet finishes a cross-chain transfer by itself). You review exactly what your
        key signs before it is sent.
      </p>
      <WithSigningKeys action="send">
        {(accounts, sign) => <TransferFlow accounts={accounts} sign={sign} />}
      </WithSigningKeys>
      {/* Shown locked or not: finishing a transfer needs no key. */}
      <PendingTransfers />
    </>
  );
}
