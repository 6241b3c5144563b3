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
import { newPasswordProblem, vaultProblem } from "../vault/vaultMessages.ts";
import { NewPassword, type NewPasswordValue } from "./NewPassword.tsx";
import { KeyField, PasswordField } from "./WalletFields.tsx";

function Problem({ text }: { readonly text: string | null }) {
  return text === null ? null : <ErrorMessage error={text} />;
}

/** Runs `f`, keeping its failure as a sentence; resolves whether it worked. */
function useAction() {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (f: () => Promise<void>): Promise<boolean> => {
    setBusy(true);
    setProblem(null);
    try {
      await f();
      return true;
    } catch (e) {
      setProblem(vaultProblem(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { problem, setProblem, busy, run };
}

export function ImportKeyForm({ close }: { readonly close: () => void }) {
  const vault = useVault();
  const [form, setForm] = useState({ keyFile: "", publicKey: "", secretKey: "", label: "" });
  const { problem, busy, run } = useAction();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void run(() => vault.importKey({ ...form, source: "imported" })).then(
          (ok) => ok && close(),
        );
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
  const { problem, busy, run } = useAction();
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
        <Button
          tone="danger"
          isDisabled={busy}
          onPress={() => void run(() => vault.removeKey(vaultKey.id)).then((ok) => ok && close())}
        >
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
  const { problem, busy, run } = useAction();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (newPasswordProblem(next.password, next.again) !== null) return;
        void run(() => vault.changePassword(current, next.password)).then((ok) => ok && close());
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
  const { problem, busy, run } = useAction();
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
        void run(async () => {
          const w = await vault.revealPhrase(password);
          setPassword("");
          setWords(w);
        });
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
