/**
 * What can be done with a transaction being signed here, shared by "Sign a transaction" and a
 * multi-signature transfer's review: **Sign** with every key this wallet holds whose signature
 * is missing (the vault signs the request key), **Copy** and **Save** it in the form it came
 * in, **Send** it once every signature is present (preflight, then `/send`). `useSignActions`
 * runs Sign and Send as mutations (what runs, what went wrong); `SignActions` shows them with
 * the buttons.
 * @module
 */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { type ShownError, thrownErrorWords, WordedError } from "../../../api/errorWords.ts";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { copyText, saveText } from "../../../ui/saveText.ts";
import { preflightAndSend } from "../transfer/preflightAndSend.ts";
import type { SigningAccount } from "../transfer/TransferFlow.tsx";
import {
  commandOf,
  fileNameOf,
  heldSigners,
  isComplete,
  type SignRequest,
  serializeSignRequest,
  signWithHeld,
} from "./signRequest.ts";

export type SignActionsState = {
  readonly request: SignRequest;
  readonly held: readonly SigningAccount[];
  /** The step running ("Signing…", "Sending…"), else null. */
  readonly busy: string | null;
  readonly failure: ShownError | null;
  readonly sign: () => void;
  readonly send: () => void;
};

export function useSignActions({
  request,
  accounts,
  sign,
  onSigned,
  onSent,
}: {
  readonly request: SignRequest;
  readonly accounts: readonly SigningAccount[];
  /** The vault's signature (128 hex) of a request key with a key. */
  readonly sign: (keyId: string, requestKey: string) => Promise<string>;
  readonly onSigned: (signed: SignRequest) => void;
  readonly onSent: (chainId: number, requestKey: string) => void;
}): SignActionsState {
  const { pact } = useServices();
  // What the send is doing now (the preflight, then the send itself).
  const [step, setStep] = useState<string | null>(null);
  const held = heldSigners(request, accounts);
  const signing = useMutation({
    mutationFn: () => signWithHeld(request, held, sign),
    onSuccess: onSigned,
  });
  const sending = useMutation({
    mutationFn: async () => {
      const chainId = Number(request.payload.meta.chainId);
      const problem = await preflightAndSend(pact, chainId, commandOf(request), setStep);
      if (problem !== null) throw new WordedError(problem);
      return chainId;
    },
    onSuccess: (chainId) => onSent(chainId, request.hash),
  });
  // The last action's failure only: starting one forgets the other's.
  const failed = signing.error ?? sending.error;

  return {
    request,
    held,
    busy: signing.isPending
      ? "Signing…"
      : sending.isPending
        ? (step ?? "Checking with the node before sending…")
        : null,
    failure: failed === null ? null : thrownErrorWords(failed, "It did not work."),
    sign: () => {
      sending.reset();
      signing.mutate();
    },
    send: () => {
      signing.reset();
      if (isComplete(request)) sending.mutate();
    },
  };
}

/** The failure, the step running, and Sign, Copy, Save, Send (`blocked`: Sign and Send off). */
export function SignActions({
  state,
  blocked = false,
  failureTestId,
}: {
  readonly state: SignActionsState;
  readonly blocked?: boolean;
  readonly failureTestId: string;
}) {
  const { request, held, busy, failure } = state;
  const output = serializeSignRequest(request);
  const json = request.form !== "weft-yaml";
  return (
    <>
      {failure === null ? null : <ErrorMessage testId={failureTestId} error={failure} />}
      {busy === null ? null : <p role="status">{busy}</p>}
      <div className="dialog-actions">
        <Button
          tone="primary"
          onPress={state.sign}
          isDisabled={busy !== null || held.length === 0 || blocked}
        >
          Sign
        </Button>
        <Button onPress={() => copyText(output, "the transaction")}>Copy</Button>
        <Button
          onPress={() =>
            saveText(output, fileNameOf(request), json ? "application/json" : "text/plain")
          }
        >
          Save
        </Button>
        <Button
          tone="primary"
          onPress={state.send}
          isDisabled={busy !== null || !isComplete(request) || blocked}
        >
          Send
        </Button>
      </div>
    </>
  );
}
