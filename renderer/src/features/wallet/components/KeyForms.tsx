/**
 * The forms of the unlocked wallet's key panel, each in its dialog: import a key pair or a
 * `weft -g` key file, remove a key (confirmed), change the password, show the recovery
 * phrase (password asked again; the words live in this dialog's state only while it is
 * open).
 * @module
 */
import { useState } from "react";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { useVault, type VaultKey } from "../vault/useVault.ts";
import { useVaultMutation } from "../vault/useVaultMutation.ts";
import { newPasswordProblem } from "../vault/vaultMessages.ts";
import { NewPassword, type NewPasswordValue } from "./NewPassword.tsx";
import { KeyField, PasswordField } from "./WalletFields.tsx";

function Problem({ text }: { readonly text: string | null }) {
  return text === null ? null : <ErrorMessage error={text} />;
}

/** A vault action that closes its dialog once done. */
function useVaultAction<V>(action: (input: V) => Promise<void>, onDone: () => void) {
  const m = useVaultMutation({ mutationFn: action, onSuccess: onDone });
  return { run: m.mutate, busy: m.isPending, problem: m.problem };
}

export function ImportKeyForm({ close }: { readonly close: () => void }) {
  const vault = useVault();
  const [form, setForm] = useState({ keyFile: "", publicKey: "", secretKey: "", label: "" });
  const { problem, busy, run } = useVaultAction(
    (input: typeof form) => vault.importKey({ ...input, source: "imported" }),
    close,
  );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        run(form);
      }}
    >
      <p>
        An imported key is kept beside the phrase's keys, encrypted the same way. It is not in your
        recovery phrase: back up the key itself.
      </p>
      <KeyField
        label="Public key"
        value={form.publicKey}
        onChange={(publicKey) => setForm({ ...form, publicKey })}
        hint="64 hex digits."
      />
      <KeyField
        label="Secret key"
        value={form.secretKey}
        onChange={(secretKey) => setForm({ ...form, secretKey })}
        hint="64 hex digits (the ed25519 seed)."
      />
      <KeyField
        label="Or a key file"
        multiline
        value={form.keyFile}
        onChange={(keyFile) => setForm({ ...form, keyFile })}
        hint="The content of a file made by weft -g (public: … and secret: … lines)."
      />
      <TextField
        label="Label"
        value={form.label}
        onChange={(label) => setForm({ ...form, label })}
        hint="Optional."
      />
      <Problem text={problem} />
      <div className="dialog-actions">
        <Button tone="primary" type="submit" isDisabled={busy}>
          Import
        </Button>
        <Button tone="quiet" onPress={close}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

export function RemoveKeyForm({
  vaultKey,
  close,
}: {
  readonly vaultKey: VaultKey;
  readonly close: () => void;
}) {
  const vault = useVault();
  const { problem, busy, run } = useVaultAction((keyId: string) => vault.removeKey(keyId), close);
  return (
    <>
      <p>
        Remove <strong>{vaultKey.label}</strong> ({vaultKey.account.slice(0, 14)}…) from this
        wallet?
        {vaultKey.source === "phrase"
          ? " It can be added again from the recovery phrase."
          : " An imported key cannot be recovered from the phrase: only from your own copy of it."}
      </p>
      <Problem text={problem} />
      <div className="dialog-actions">
        <Button tone="danger" isDisabled={busy} onPress={() => run(vaultKey.id)}>
          Remove the key
        </Button>
        <Button tone="quiet" onPress={close}>
          Cancel
        </Button>
      </div>
    </>
  );
}

export function ChangePasswordForm({ close }: { readonly close: () => void }) {
  const vault = useVault();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState<NewPasswordValue>({ password: "", again: "" });
  const [tried, setTried] = useState(false);
  const { problem, busy, run } = useVaultAction(
    (change: { current: string; next: string }) =>
      vault.changePassword(change.current, change.next),
    close,
  );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (newPasswordProblem(next.password, next.again) !== null) return;
        run({ current, next: next.password });
      }}
    >
      <PasswordField label="Current password" value={current} onChange={setCurrent} autoFocus />
      <NewPassword label="New password" value={next} onChange={setNext} showProblem={tried} />
      <Problem text={problem} />
      <div className="dialog-actions">
        <Button tone="primary" type="submit" isDisabled={busy}>
          Change password
        </Button>
        <Button tone="quiet" onPress={close}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

export function RevealPhraseForm({ close }: { readonly close: () => void }) {
  const vault = useVault();
  const [password, setPassword] = useState("");
  const [words, setWords] = useState<readonly string[] | null>(null);
  // The words go to this dialog's state only (not the mutation's result).
  const { problem, busy, run } = useVaultAction(
    async (given: string) => {
      const w = await vault.revealPhrase(given);
      setPassword("");
      setWords(w);
    },
    () => {
      // The dialog stays open: it now shows the words until the user closes it.
    },
  );
  if (words !== null) {
    return (
      <>
        <Notice tone="warning">
          <p>Anyone who sees these words controls your funds. Close this when you are done.</p>
        </Notice>
        <ol className="phrase-words" aria-label="Recovery phrase">
          {words.map((w, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a word may repeat; its position is its identity
            <li key={i}>{w}</li>
          ))}
        </ol>
        <div className="dialog-actions">
          <Button
            tone="primary"
            onPress={() => {
              setWords(null);
              close();
            }}
          >
            Close
          </Button>
        </div>
      </>
    );
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        run(password);
      }}
    >
      <p>Give your password again to see the recovery phrase.</p>
      <PasswordField label="Password" value={password} onChange={setPassword} autoFocus />
      <Problem text={problem} />
      <div className="dialog-actions">
        <Button tone="primary" type="submit" isDisabled={busy}>
          Show
        </Button>
        <Button tone="quiet" onPress={close}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
