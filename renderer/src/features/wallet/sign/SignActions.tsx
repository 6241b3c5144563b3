/**
 * What can be done with a transaction being signed here, shared by "Sign a transaction" and a
 * multi-signature transfer's review: **Sign** with every key this wallet holds whose signature
 * is missing (the vault signs the request key), **Copy** and **Save** it in the form it came
 * in, **Send** it once every signature is present (preflight, then `/send`). `useSignActions`
 * keeps what runs and what went wrong; `SignActions` shows them with the buttons.
 * @module
 */
import { useState } from "react";
import { type ShownError, thrownErrorWords } from "../../../api/errorWords.ts";
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
  readonly busy: string | null;
  readonly failure: ShownError | null;
  readonly sign: () => Promise<void>;
  readonly send: () => Promise<void>;
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
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<ShownError | null>(null);
  const held = heldSigners(request, accounts);

  const run = async (step: () => Promise<void>) => {
    setFailure(null);
    try {
      await step();
    } catch (e) {
      setFailure(thrownErrorWords(e, "It did not work."));
    } finally {
      setBusy(null);
    }
  };

  return {
    request,
    held,
    busy,
    failure,
    sign: () =>
      run(async () => {
        setBusy("Signing…");
        onSigned(await signWithHeld(request, held, sign));
      }),
    send: () =>
      run(async () => {
        if (!isComplete(request)) return;
        const chainId = Number(request.payload.meta.chainId);
        const problem = await preflightAndSend(pact, chainId, commandOf(request), setBusy);
        if (problem !== null) return setFailure(problem);
        onSent(chainId, request.hash);
      }),
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
          onPress={() => void state.sign()}
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
          onPress={() => void state.send()}
          isDisabled={busy !== null || !isComplete(request) || blocked}
        >
          Send
        </Button>
      </div>
    </>
  );
}
