/**
 * Restoring a wallet from its phrase: the "Recovery phrase" text area (checked against the
 * word list and the checksum, the first bad word named), a new password, then account
 * discovery (VaultProvider.tsx) adds the phrase's keys that have accounts.
 * @module
 */
import { useState } from "react";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { phraseProblem } from "../keystore/phrase.ts";
import { useVault } from "../vault/useVault.ts";
import { useVaultMutation } from "../vault/useVaultMutation.ts";
import { newPasswordProblem } from "../vault/vaultMessages.ts";
import { NewPassword, type NewPasswordValue } from "./NewPassword.tsx";
import { PhraseField } from "./WalletFields.tsx";
import { makeWallet, type WalletFlowProps } from "./walletFlow.ts";

export function RestoreWallet(flow: WalletFlowProps) {
  const { onCancel, replace = false } = flow;
  const vault = useVault();
  const [phrase, setPhrase] = useState("");
  const [password, setPassword] = useState<NewPasswordValue>({ password: "", again: "" });
  const [tried, setTried] = useState(false);
  const phraseError = tried ? phraseProblem(phrase) : null;
  const make = useVaultMutation({
    mutationFn: (given: { password: string; phrase: string }) =>
      makeWallet(vault, flow, given.password, given.phrase),
  });
  const problem = make.problem;
  // Once made, the wallet page takes over: the button stays off.
  const busy = make.isPending || make.isSuccess;

  const restore = () => {
    setTried(true);
    if (
      phraseProblem(phrase) !== null ||
      newPasswordProblem(password.password, password.again) !== null
    )
      return;
    make.mutate({ password: password.password, phrase });
  };

  return (
    <Panel
      id="wallet-restore"
      title={replace ? "Restore and replace this wallet" : "Restore a wallet"}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          restore();
        }}
      >
        <PhraseField
          label="Recovery phrase"
          value={phrase}
          onChange={setPhrase}
          error={phraseError}
          hint="The 12 or 24 words, in order, separated by spaces or new lines."
          autoFocus
        />
        <Notice tone="info">
          <p>
            Keys are derived as BIP39 + SLIP-10 on m/44'/626'/i' (as Kadena's current wallets).
            Phrases from Chainweaver or eckoWALLET use a legacy derivation that is not supported
            yet: they would give other keys here. After restoring, keys 0–19 are looked up on every
            chain and those with an account are added.
          </p>
        </Notice>
        <NewPassword value={password} onChange={setPassword} showProblem={tried} />
        {problem === null ? null : <ErrorMessage error={problem} />}
        <div className="button-row">
          <Button tone="primary" type="submit" isDisabled={busy}>
            {busy ? "Restoring…" : replace ? "Restore and replace" : "Restore"}
          </Button>
          <Button tone="quiet" onPress={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </Panel>
  );
}
