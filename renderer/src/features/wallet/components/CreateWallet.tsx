/**
 * Creating a wallet: a new phrase (12 words, 24 offered) shown once as a numbered list with a
 * warning; then three of its words, chosen at random, typed back ("Word N"); then the
 * password. The words live in this component's state only while they are shown, and the
 * worker keeps the phrase until the wallet is created.
 * @module
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { newPhraseQuery } from "../api.ts";
import { confirmationPositions } from "../keystore/phrase.ts";
import { useVault } from "../vault/useVault.ts";
import { useVaultMutation } from "../vault/useVaultMutation.ts";
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
  | { readonly kind: "show" }
  | { readonly kind: "confirm"; readonly length: number; readonly positions: readonly number[] }
  | { readonly kind: "password" };

export function CreateWallet(flow: WalletFlowProps) {
  const { onCancel, replace = false } = flow;
  const vault = useVault();
  const queries = useQueryClient();
  const [length, setLength] = useState<12 | 24>(12);
  const [step, setStep] = useState<Step>({ kind: "show" });
  const [answers, setAnswers] = useState<Record<number, string>>({});
  const [password, setPassword] = useState<NewPasswordValue>({ password: "", again: "" });
  const [tried, setTried] = useState(false);

  // Only a change of length makes a new phrase (a key of its own); the vault's other changes
  // do not replace the words the user is copying.
  const form = useId();
  const phraseOptions = newPhraseQuery(vault, form, length);
  const phrase = useQuery({ ...phraseOptions, enabled: step.kind === "show" });
  const words = phrase.data;

  const toConfirm = (shown: readonly string[]) => {
    setAnswers({});
    // The words leave the page's memory here: only their count and the positions to ask remain.
    setStep({
      kind: "confirm",
      length: shown.length,
      positions: confirmationPositions(shown.length, CONFIRM_WORDS, randomBelow),
    });
    queries.removeQueries({ queryKey: phraseOptions.queryKey });
  };

  const confirm = useVaultMutation({
    mutationFn: (positions: readonly number[]) =>
      vault.confirmWords(positions.map((p) => ({ position: p, word: answers[p] ?? "" }))),
    onSuccess: (ok) => {
      if (ok) setStep({ kind: "password" });
    },
  });
  const confirmProblem =
    confirm.problem !== null
      ? confirm.problem
      : confirm.data === false
        ? "At least one word does not match your phrase. Check what you wrote down."
        : null;

  const create = useVaultMutation({
    mutationFn: (newPassword: string) => makeWallet(vault, flow, newPassword, null),
  });
  // Once made, the wallet page takes over: the button stays off.
  const busy = create.isPending || create.isSuccess;
  const onCreate = () => {
    setTried(true);
    if (newPasswordProblem(password.password, password.again) !== null) return;
    create.mutate(password.password);
  };

  return (
    <Panel id="wallet-create" title={replace ? "Create a new wallet" : "Create a wallet"}>
      {step.kind === "show" && words !== undefined ? (
        <>
          <Notice tone="warning">
            <p>
              Write these {words.length} words down, in order, on paper, and keep them safe. They
              are the only way to restore your wallet if this computer is lost. Anyone who has them
              controls your funds. They are shown only now.
            </p>
          </Notice>
          <ol className="phrase-words" aria-label="Recovery phrase">
            {words.map((w, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a word may repeat; its position is its identity
              <li key={i}>{w}</li>
            ))}
          </ol>
          <div className="button-row">
            <Button tone="primary" onPress={() => toConfirm(words)}>
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
      {step.kind === "confirm" ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            confirm.mutate(step.positions);
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
          {confirmProblem === null ? null : <ErrorMessage error={confirmProblem} />}
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
      {step.kind === "password" ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            onCreate();
          }}
        >
          <p>Choose the password that unlocks this wallet on this node.</p>
          <NewPassword value={password} onChange={setPassword} showProblem={tried} />
          {create.problem === null ? null : <ErrorMessage error={create.problem} />}
          <div className="button-row">
            <Button tone="primary" type="submit" isDisabled={busy}>
              {busy ? "Creating…" : replace ? "Create and replace" : "Create the wallet"}
            </Button>
          </div>
        </form>
      ) : null}
      {phrase.error === null ? null : <ErrorMessage error={vaultProblem(phrase.error)} />}
    </Panel>
  );
}
