/**
 * Signing what others prepared (`#/wallet/sign`): the sign flow with the unlocked vault's
 * keys; while the wallet is locked or not set up, a pointer to the wallet page.
 * @module
 */
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { WithSigningKeys } from "../components/WithSigningKeys.tsx";
import { SignFlow } from "./SignFlow.tsx";

export function SignPage() {
  return (
    <>
      <PageTitle>Sign a transaction</PageTitle>
      <p className="lead">
        Sign a transaction someone prepared (with <code>weft -u</code>, a dapp or another wallet).
        You see exactly what it does before your keys sign it.
      </p>
      <WithSigningKeys action="sign">
        {(accounts, sign) => <SignFlow accounts={accounts} sign={sign} />}
      </WithSigningKeys>
    </>
  );
}
