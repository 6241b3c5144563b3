/**
 * The locked wallet: its password unlocks it ("Unlock"); a wrong password says so and
 * nothing else; after three, the worker makes the next attempts wait. "I forgot my password"
 * leads to restoring from the recovery phrase in its place (`ReplaceWallet.tsx`).
 * @module
 */
import { useState } from "react";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { useVault } from "../vault/useVault.ts";
import { useVaultMutation } from "../vault/useVaultMutation.ts";
import { PasswordField } from "./WalletFields.tsx";

export function UnlockForm({
  onForgot,
}: {
  /** "I forgot my password" (the wallet page; elsewhere the form unlocks only). */
  readonly onForgot?: () => void;
}) {
  const vault = useVault();
  const [password, setPassword] = useState("");
  const unlock = useVaultMutation({
    mutationFn: (given: string) => vault.unlock(given),
    onError: () => setPassword(""),
  });
  const problem = unlock.problem;
  // Once unlocked, the wallet page takes over: the buttons stay off.
  const busy = unlock.isPending || unlock.isSuccess;

  return (
    <Panel id="wallet-unlock" title="Unlock your wallet">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          unlock.mutate(password);
        }}
      >
        <p>The wallet is locked. Its keys are encrypted until you give the password.</p>
        <PasswordField label="Password" value={password} onChange={setPassword} autoFocus />
        {problem === null ? null : <ErrorMessage testId="unlock-problem" error={problem} />}
        <div className="button-row">
          <Button tone="primary" type="submit" isDisabled={busy}>
            {busy ? "Unlocking…" : "Unlock"}
          </Button>
          {onForgot === undefined ? null : (
            <Button tone="quiet" onPress={onForgot} isDisabled={busy}>
              I forgot my password
            </Button>
          )}
        </div>
      </form>
    </Panel>
  );
}
