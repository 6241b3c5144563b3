/**
 * Creating a wallet: a new phrase (12 words, 24 offered) shown once as a numbered list with a
 * warning; then three of its words, chosen at random, typed back ("Word N"); then the
 * password. The words live in this component's state only while they are shown, and the
 * worker keeps the phrase until the wallet is created.
 * @module
 */
import { useEffect, useRef, useState } from "react";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { confirmationPositions } from "../keystore/phrase.ts";
import { useVault } from "../vault/useVault.ts";
import { newPasswordProblem, vaultProblem } from "../vault/vaultMessages.ts";
import { NewPassword, type NewPasswordValue } from "./NewPassword.tsx";
import { makeWallet, type WalletFlowProps } from "./walletFlow.ts";

const CONFIRM_WORDS = 3;

function randomBelow(n: number): number {
  const x = new Uint32Array(1);
  crypto.getRandomValues(x);
  return (x[0] ?? 0) % n;
}

type Step =
  | { readonly kind: "show"; readonly words: readonly string[] }
  | { readonly kind: "confirm"; readonly length: number; readonly positions: readonly number[] }
  | { readonly kind: "password" };

export function CreateWallet(flow: WalletFlowProps) {
  const { onCancel, replace = false } = flow;
  const vault = useVault();
  const [length, setLength] = useState<12 | 24>(12);
  const [step, setStep] = useState<Step | null>(null);
  const [answers, setAnswers] = useState<Record<number, string>>({});
  const [password, setPassword] = useState<NewPasswordValue>({ password: "", again: "" });
  const [tried, setTried] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Only a change of length makes a new phrase: the vault's other changes must not replace
  // the words the user is copying (the ref follows the latest vault without re-running).
  const generate = useRef(vault.generatePhrase);
  generate.current = vault.generatePhrase;
  useEffect(() => {
    let live = true;
    setStep(null);
    generate
      .current(length)
      .then((words) => live && setStep({ kind: "show", words }))
      .catch((e: unknown) => live && setProblem(vaultProblem(e)));
    return () => {
      live = false;
    };
  }, [length]);

  const toConfirm = (words: readonly string[]) => {
    setAnswers({});
    setProblem(null);
    // The words leave React state here: only their count and the positions to ask remain.
    setStep({
      kind: "confirm",
      length: words.length,
      positions: confirmationPositions(words.length, CONFIRM_WORDS, randomBelow),
    });
  };

  const confirm = async (positions: readonly number[]) => {
    setProblem(null);
    const ok = await vault.confirmWords(
      positions.map((p) => ({ position: p, word: answers[p] ?? "" })),
    );
    if (ok) setStep({ kind: "password" });
    else setProblem("At least one word does not match your phrase. Check what you wrote down.");
  };

  const create = async () => {
    setTried(true);
    if (newPasswordProblem(password.password, password.again) !== null) return;
    setBusy(true);
    setProblem(null);
    try {
      await makeWallet(vault, flow, password.password, null);
    } catch (e) {
      setProblem(vaultProblem(e));
      setBusy(false);
    }
  };

  return (
    <Panel id="wallet-create" title={replace ? "Create a new wallet" : "Create a wallet"}>
      {step?.kind === "show" ? (
        <>
          <Notice tone="warning">
            <p>
              Write these {step.words.length} words down, in order, on paper, and keep them safe.
              They are the only way to restore your wallet if this computer is lost. Anyone who has
              them controls your funds. They are shown only now.
            </p>
          </Notice>
          <ol className="phrase-words" aria-label="Recovery phrase">
            {step.words.map((w, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a word may repeat; its position is its identity
              <li key={i}>{w}</li>
            ))}
          </ol>
          <div className="button-row">
            <Button tone="primary" onPress={() => toConfirm(step.words)}>
              I have written them down
            </Button>
            <Button tone="quiet" onPress={() => setLength(length === 12 ? 24 : 12)}>
              {length === 12 ? "Use 24 words instead" : "Use 12 words instead"}
            </Button>
            <Button tone="quiet" onPress={onCancel}>
              Cancel
            </Button>
          </div>
        </>
      ) : null}
      {step?.kind === "confirm" ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void confirm(step.positions);
          }}
        >
          <p>Type these words of your phrase to show you have them.</p>
          {step.positions.map((p) => (
            <TextField
              key={p}
              label={`Word ${p + 1}`}
              value={answers[p] ?? ""}
              onChange={(v) => setAnswers({ ...answers, [p]: v })}
            />
          ))}
          {problem === null ? null : <ErrorMessage error={problem} />}
          <div className="button-row">
            <Button tone="primary" type="submit">
              Confirm words
            </Button>
            <Button tone="quiet" onPress={onCancel}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
      {step?.kind === "password" ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <p>Choose the password that unlocks this wallet on this node.</p>
          <NewPassword value={password} onChange={setPassword} showProblem={tried} />
          {problem === null ? null : <ErrorMessage error={problem} />}
          <div className="button-row">
            <Button tone="primary" type="submit" isDisabled={busy}>
              {busy ? "Creating…" : replace ? "Create and replace" : "Create the wallet"}
            </Button>
          </div>
        </form>
      ) : null}
      {step === null && problem !== null ? <ErrorMessage error={problem} /> : null}
    </Panel>
  );
}
