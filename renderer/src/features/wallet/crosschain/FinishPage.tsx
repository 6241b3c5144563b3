/**
 * "Finish a transfer" (`#/wallet/finish/<requestKey>`; the explorer links here): the request
 * key of any cross-chain transfer's step 1, made here or elsewhere; the wallet finds its
 * chain (a `/poll` on every chain of the cut), reads the target chain from the step's yield
 * and hands it to the pending transfers, which finish it as they finish the wallet's own
 * (the gas station pays, so no key and no coins are needed).
 * @module
 */
import { useMutation } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { useState } from "react";
import {
  isJsonObject,
  JsonNumber,
  type JsonValue,
} from "../../../../../src-node/command/exactJson.ts";
import {
  clientErrorWords,
  plainError,
  type ShownError,
  thrownErrorWords,
  WordedError,
} from "../../../api/errorWords.ts";
import { useLiveChain, useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { yieldTarget } from "./advancePending.ts";
import { usePendingTransfers } from "./PendingProvider.tsx";
import { PendingTransferState } from "./PendingTransfers.tsx";
import { newPending } from "./pendingTransfer.ts";

const route = getRouteApi("/wallet/finish/$requestKey");
const KEY = /^[A-Za-z0-9_-]{43}$/;

function textOf(x: JsonValue | undefined): string | null {
  if (typeof x === "string") return x;
  if (x instanceof JsonNumber) return x.text;
  if (isJsonObject(x) && typeof x.decimal === "string") return x.decimal;
  return null;
}

export function FinishPage() {
  const params = route.useParams();
  const { heights } = useLiveChain();
  const { pact } = useServices();
  const pending = usePendingTransfers();
  const [keyText, setKeyText] = useState(params.requestKey === "-" ? "" : params.requestKey);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [finishing, setFinishing] = useState<string | null>(null);

  /** Step 1 found on the chains of the cut, as a pending transfer (refusals are thrown). */
  const lookUp = useMutation({
    mutationFn: async (key: string) => {
      const refuse = (text: string) => new WordedError(plainError(text));
      const chains = heights.heads.map((h) => h.chainId);
      const polled = await Promise.all(chains.map((c) => pact.poll(c, [key])));
      let found: { chain: number; i: number } | null = null;
      for (const [i, r] of polled.entries()) {
        if (!r.ok) throw new WordedError(clientErrorWords(r.error));
        if (r.value.has(key)) found = { chain: chains[i] ?? 0, i };
      }
      if (found === null) {
        throw refuse(
          "No chain of this node has a transaction with this request key (yet): check the key, or wait for its block.",
        );
      }
      const r = polled[found.i];
      const result = r?.ok ? r.value.get(key) : undefined;
      if (result === undefined) return null;
      if (!result.outcome.ok) {
        throw refuse(
          `That transaction failed on chain ${found.chain} (${result.outcome.message}): there is nothing to finish.`,
        );
      }
      const target = yieldTarget(result);
      if (target === null) {
        throw refuse(
          `That transaction on chain ${found.chain} is not the first step of a cross-chain transfer.`,
        );
      }
      const c = result.continuation;
      const y = isJsonObject(c) && isJsonObject(c.yield) ? c.yield : null;
      const data = y !== null && isJsonObject(y.data) ? y.data : null;
      return newPending({
        requestKey: key,
        sourceChain: found.chain,
        targetChain: target,
        sender: null,
        receiver: textOf(data?.receiver),
        amount: textOf(data?.amount),
        createdAt: Date.now(),
      });
    },
    onSuccess: (transfer) => {
      if (transfer === null) return;
      pending.add(transfer);
      setFinishing(transfer.requestKey);
    },
  });
  const busy = lookUp.isPending;
  const problem: ShownError | null =
    invalid ?? (lookUp.error === null ? null : thrownErrorWords(lookUp.error, "It was not found."));

  const finish = () => {
    const key = keyText.trim();
    setInvalid(null);
    lookUp.reset();
    if (!KEY.test(key)) return setInvalid("A request key is 43 characters of base64url.");
    if (pending.transfers.some((t) => t.requestKey === key)) return setFinishing(key);
    lookUp.mutate(key);
  };

  const transfer = pending.transfers.find((t) => t.requestKey === finishing);
  return (
    <>
      <PageTitle>Finish a transfer</PageTitle>
      <p className="lead">
        Finish a cross-chain transfer whose second step is missing, whoever sent its first step. The
        gas station on the target chain pays for the second step.
      </p>
      <Panel id="finish-form" title="Request key of step 1">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            finish();
          }}
        >
          <TextField label="Request key" value={keyText} onChange={setKeyText} error={problem} />
          <Button type="submit" tone="primary" isDisabled={busy || !heights.loaded}>
            Finish a transfer
          </Button>
        </form>
        {busy ? <p role="status">Looking for the transaction on every chain…</p> : null}
      </Panel>
      {transfer === undefined ? null : (
        <Panel id="finish-state" title="State">
          <PendingTransferState transfer={transfer} />
        </Panel>
      )}
      {pending.problem === null ? null : <ErrorMessage error={pending.problem} />}
    </>
  );
}
