/**
 * The wallet (`#/wallet`). Keys, accounts and transfers arrive with the wallet issue.
 * @module
 */
import { ComingSoon } from "../../../ui/ComingSoon.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";

export function WalletPage() {
  return (
    <>
      <PageTitle>Wallet</PageTitle>
      <p className="lead">
        Create or restore a wallet from a recovery phrase, see your accounts on every chain, and
        send and sign transfers.
      </p>
      <ComingSoon>
        The wallet is not available yet. The Node page and the explorer's chain views work now.
      </ComingSoon>
    </>
  );
}
