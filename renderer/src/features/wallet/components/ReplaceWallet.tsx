/**
 * Restoring or replacing a wallet that exists (docs/wallet.md "Replacing the wallet"): from the
 * locked page ("I forgot my password": restore from the recovery phrase with a new password)
 * or from the keys panel ("Restore or replace this wallet": restore a phrase, or create a new
 * wallet). First a warning of what is replaced and what the phrase cannot give back (keys not
 * derived from it), the backup offer, and a confirmation; then the restore or create flow, which
 * replaces the wallet through the node (the old keystore kept aside, never deleted).
 * @module
 */
import { useState } from "react";
import { Button } from "../../../ui/Button.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { BackupOffer } from "../backup/BackupOffer.tsx";
import { useVault } from "../vault/useVault.ts";
import { CreateWallet } from "./CreateWallet.tsx";
import { RestoreWallet } from "./RestoreWallet.tsx";

export function ReplaceWallet({
  forgot,
  onCancel,
  onReplaced,
}: {
  /** From the locked page: the password is forgotten, so only a restore is offered. */
  readonly forgot: boolean;
  readonly onCancel: () => void;
  readonly onReplaced: () => void;
}) {
  const vault = useVault();
  const [understood, setUnderstood] = useState(false);
  const [flow, setFlow] = useState<"warn" | "restore" | "create">("warn");
  if (flow === "restore") {
    return <RestoreWallet replace onCancel={() => setFlow("warn")} onReplaced={onReplaced} />;
  }
  if (flow === "create") {
    return <CreateWallet replace onCancel={() => setFlow("warn")} onReplaced={onReplaced} />;
  }
  const keys = vault.keystore?.public.keys ?? [];
  const notFromPhrase = keys.filter((k) => k.source !== "phrase");
  return (
    <Panel
      id="wallet-replace"
      title={forgot ? "Forgot your password?" : "Restore or replace this wallet"}
    >
      {forgot ? (
        <p>
          Nobody can recover the password: it alone opens this wallet's file. What you can do is
          restore the wallet from its recovery phrase with a new password. The restored wallet
          replaces this one on this computer.
        </p>
      ) : (
        <p>
          Put another wallet in place of this one: restore one from a recovery phrase (this
          wallet's, to start again with a new password, or another), or create a new one.
        </p>
      )}
      <Notice tone="warning" testId="replace-warning">
        <p>
          <strong>This wallet will be replaced.</strong> Its file is not deleted: the node keeps it
          beside the new one, as <code>wallet/keystore-replaced-&lt;time&gt;.json</code> in its data
          folder, and the backups made after hold it too. It still opens with its old password
          (docs/wallet.md says how to put it back).
        </p>
        {notFromPhrase.length === 0 ? null : (
          <p data-testid="replace-not-from-phrase">
            {notFromPhrase.length === 1 ? "One key" : `${notFromPhrase.length} keys`} of this wallet
            did not come from its recovery phrase ({notFromPhrase.map((k) => k.label).join(", ")}):
            restoring the phrase does not give {notFromPhrase.length === 1 ? "it" : "them"} back.
            Only the kept file and its backups hold {notFromPhrase.length === 1 ? "it" : "them"}.
          </p>
        )}
      </Notice>
      <BackupOffer />
      <label className="check-line">
        <input
          type="checkbox"
          checked={understood}
          onChange={(e) => setUnderstood(e.target.checked)}
        />{" "}
        I understand that this wallet is replaced, and its file kept aside
      </label>
      <div className="button-row">
        <Button tone="primary" isDisabled={!understood} onPress={() => setFlow("restore")}>
          Restore from the recovery phrase
        </Button>
        {forgot ? null : (
          <Button isDisabled={!understood} onPress={() => setFlow("create")}>
            Create a new wallet
          </Button>
        )}
        <Button tone="quiet" onPress={onCancel}>
          Cancel
        </Button>
      </div>
    </Panel>
  );
}
