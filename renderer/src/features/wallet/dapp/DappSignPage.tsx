/**
 * A dapp's signing request (`#/wallet/dapp`, opened by `DappRequestsProvider` when one
 * arrives; docs/dapp-signing.md): who asks (its web origin), and each transaction in the
 * review of "Sign a transaction" (`sign/SignFlow.tsx`'s `Review`). Nothing is signed before
 * the user presses "Sign", with the wallet unlocked (the unlock form is shown while it is
 * locked); "Refuse" answers the dapp with the API's refusal. A network other than the node's
 * must be confirmed first. Requests are answered oldest first. The request on screen stays
 * until it is answered: when it stops waiting meanwhile (its dapp withdrew it, it timed out)
 * it is shown so, with Sign and Refuse off, until the user moves on; an answer names the
 * request on screen, so it reaches that request's dapp or nobody.
 * @module
 */
import { useMutation } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect, useMemo, useState } from "react";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { clientErrorWords, thrownErrorWords, withLead } from "../../../api/errorWords.ts";
import { formatDateTime } from "../../../format/dateTime.ts";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { showToast } from "../../../ui/toasts.tsx";
import { answerSignRequestMutation } from "../api.ts";
import { UnlockForm } from "../components/UnlockForm.tsx";
import type { SignerAnswerBody } from "../endpoints.ts";
import { NetworkWarning } from "../sign/NetworkWarning.tsx";
import { Review } from "../sign/SignFlow.tsx";
import { heldSigners, type SignRequest, signWithHeld } from "../sign/signRequest.ts";
import type { SigningAccount } from "../transfer/TransferFlow.tsx";
import { useVault } from "../vault/useVault.ts";
import { useDappRequests } from "./DappRequestsProvider.tsx";
import type { Shown, ShownEnd } from "./dappOnScreen.ts";
import { type DappRequest, originText, prepareRequest, signedAnswer } from "./dappRequests.ts";

function RequestReview({
  request,
  stopped,
  accounts,
  sign,
  answer,
  sending,
}: {
  readonly request: DappRequest;
  /** Why it no longer waits (nothing can be answered), said beside the buttons; null while it waits. */
  readonly stopped: string | null;
  readonly accounts: readonly SigningAccount[];
  readonly sign: (keyId: string, requestKey: string) => Promise<string>;
  /** Sends the answer to the dapp (`ShownRequest`'s mutation). */
  readonly answer: (body: SignerAnswerBody) => void;
  /** The answer on its way, if one is. */
  readonly sending: Answer | null;
}) {
  const { config } = useServices();
  const [confirmNetwork, setConfirmNetwork] = useState(false);
  // Signs every transaction held here, then hands the signed answer on.
  const signing = useMutation({
    mutationFn: async (each: readonly (readonly [SignRequest, readonly SigningAccount[]])[]) => {
      const signed: SignRequest[] = [];
      for (const [t, signers] of each) signed.push(await signWithHeld(t, signers, sign));
      return signedAnswer(request, signed);
    },
    onSuccess: answer,
  });
  // Signing and the signed answer's travel (a refusal's travel leaves the buttons as they are).
  const busy = signing.isPending || sending === "signed";
  const failure =
    signing.error === null ? null : thrownErrorWords(signing.error, "Signing failed.");
  // Built once per request: a /v1/sign command's creation time and nonce must not change under the user.
  // biome-ignore lint/correctness/useExhaustiveDependencies: one command per request (keys do not change while it is shown)
  const prepared = useMemo(
    () =>
      prepareRequest(request, {
        networkId: config.networkId,
        publicKeys: accounts.map((a) => a.publicKey),
        now: Math.floor(Date.now() / 1000),
        nonce: `weft-dapp:${new Date().toISOString()}`,
      }),
    [request.id],
  );
  if (!prepared.ok) {
    return (
      <>
        <ErrorMessage
          testId="dapp-problem"
          error={`This request cannot be signed: ${prepared.error}. Refuse it, or ask the dapp for another.`}
        />
        <StoppedNote stopped={stopped} />
        <div className="dialog-actions">
          <Button onPress={() => answer({ answer: "refused" })} isDisabled={stopped !== null}>
            Refuse
          </Button>
        </div>
      </>
    );
  }
  const transactions = prepared.value;
  const otherNetwork = transactions.find((t) => t.payload.networkId !== config.networkId);
  const blocked = otherNetwork !== undefined && !confirmNetwork;
  const held = transactions.map((t) => heldSigners(t, accounts));
  // /v1/sign answers a complete command: every signer must be held here.
  const complete =
    request.kind === "quicksign" ||
    transactions.every((t, i) => held[i]?.length === t.sigs.filter((s) => s === null).length);
  const canSign = held.some((h) => h.length > 0) && complete;

  return (
    <>
      {transactions.map((t, i) => (
        <Panel
          key={t.hash}
          id={`dapp-tx-${i}`}
          title={
            transactions.length === 1
              ? "What is signed"
              : `Transaction ${i + 1} of ${transactions.length}`
          }
        >
          <Review request={t} accounts={accounts} />
        </Panel>
      ))}
      {otherNetwork === undefined ? null : (
        <NetworkWarning
          lead="The dapp asks to sign for the network"
          txNetwork={otherNetwork.payload.networkId}
          nodeNetwork={config.networkId}
          confirmed={confirmNetwork}
          onConfirm={setConfirmNetwork}
          testId="dapp-network-warning"
        />
      )}
      {canSign ? null : (
        <Notice tone="info" testId="dapp-not-held">
          <p>
            {complete
              ? "This wallet holds none of the keys this request asks to sign with: refuse it."
              : "This wallet does not hold every signer's key, and this dapp asks for a complete command: refuse it."}
          </p>
        </Notice>
      )}
      {failure === null ? null : <ErrorMessage testId="dapp-failure" error={failure} />}
      {busy ? <p role="status">Signing…</p> : null}
      <StoppedNote stopped={stopped} />
      <div className="dialog-actions">
        <Button
          tone="primary"
          onPress={() => signing.mutate(transactions.map((t, i) => [t, held[i] ?? []] as const))}
          isDisabled={busy || !canSign || blocked || stopped !== null}
        >
          Sign
        </Button>
        <Button onPress={() => answer({ answer: "refused" })} isDisabled={busy || stopped !== null}>
          Refuse
        </Button>
      </div>
    </>
  );
}

/** Beside the buttons, where the user's pointer is: why they are off (announced). */
function StoppedNote({ stopped }: { readonly stopped: string | null }) {
  return stopped === null ? null : (
    <p role="status" className="dapp-stopped" data-testid="dapp-stopped">
      {stopped}: Sign and Refuse are off.
    </p>
  );
}

/** Why the request on screen no longer waits, in a few words. */
function endedLabel(ended: ShownEnd): string {
  switch (ended) {
    case "withdrawn":
      return "Withdrawn by the dapp";
    case "timedOut":
      return "Timed out";
    case "signed":
    case "refused":
      return "Answered in another window";
    case "closed":
    case "gone":
      return "No longer waiting";
  }
}

/** Why the request on screen no longer waits, in words. */
function endedWords(ended: ShownEnd, origin: string | null): [string, string] {
  switch (ended) {
    case "withdrawn":
      return [
        "Withdrawn:",
        `${originText(origin)} withdrew this request (it closed the page or stopped waiting). Nothing was sent to it.`,
      ];
    case "timedOut":
      return ["Timed out:", "nobody answered in time, and the dapp was told so."];
    case "signed":
    case "refused":
      return ["Answered already,", "in another window of the app."];
    case "closed":
      return [
        "No longer waiting:",
        "the signing API stopped (switched off, or the node restarted), and the dapp was told so.",
      ];
    case "gone":
      return ["No longer waiting:", "the node does not know this request any more."];
  }
}

/** What an answer to a dapp says. */
type Answer = "signed" | "refused";

const answerOf = (body: unknown): Answer =>
  (body as { answer?: string }).answer === "refused" ? "refused" : "signed";

function ShownRequest({ shown }: { readonly shown: Shown }) {
  const { client } = useServices();
  const { answered, dismiss } = useDappRequests();
  const vault = useVault();
  const { request, others } = shown;
  const send = useMutation({
    ...answerSignRequestMutation(client),
    onSuccess: (_, { id, answer }) => {
      answered(id);
      showToast(
        answerOf(answer) === "refused"
          ? "Refused: the dapp was told."
          : "Signed: the dapp has its signatures.",
      );
    },
  });
  // While this page's own answer travels, the node may list the request as answered first.
  const ended = send.isPending ? null : shown.ended;
  const stopped = ended === null ? null : endedLabel(ended);
  const problem =
    send.error === null
      ? null
      : withLead("The answer did not reach the dapp.", clientErrorWords(clientErrorOf(send.error)));
  // The id of the request on screen: the answer reaches its dapp or nobody.
  const reply = (answer: SignerAnswerBody) => send.mutate({ id: request.id, answer });

  const more = others > 0 ? ` ${others} more wait after it.` : "";
  return (
    <>
      <Notice tone="info" testId="dapp-request">
        <p>
          Request from <strong data-testid="dapp-origin">{originText(request.origin)}</strong> (
          {request.kind === "quicksign" ? "quicksign" : "sign"}).
          {stopped !== null
            ? ""
            : ` Unanswered, it is refused at ${formatDateTime(request.expiresAt)}.`}
          {more}
        </p>
      </Notice>
      {ended === null ? null : (
        <Notice tone="warning" testId="dapp-ended">
          <p>
            <strong>{endedWords(ended, request.origin)[0]}</strong>{" "}
            {endedWords(ended, request.origin)[1]} Sign and Refuse are off.
          </p>
          <div className="dialog-actions">
            <Button onPress={dismiss}>{others > 0 ? "Show the next request" : "Dismiss"}</Button>
          </div>
        </Notice>
      )}
      {problem === null ? null : <ErrorMessage testId="dapp-answer-problem" error={problem} />}
      {vault.state.status === "unlocked" ? (
        <RequestReview
          request={request}
          stopped={stopped}
          accounts={vault.state.keys.map((k) => ({
            keyId: k.id,
            account: k.account,
            publicKey: k.publicKey,
            label: k.label,
          }))}
          sign={(keyId, requestKey) => vault.sign(keyId, requestKey)}
          answer={reply}
          sending={send.isPending ? answerOf(send.variables?.answer) : null}
        />
      ) : (
        <>
          {vault.state.status === "locked" ? (
            <UnlockForm />
          ) : (
            <Notice tone="info">
              <p>
                {vault.state.status === "loading"
                  ? "Loading the wallet…"
                  : "There is no wallet yet: create or restore one to sign."}
              </p>
            </Notice>
          )}
          <StoppedNote stopped={stopped} />
          <div className="dialog-actions">
            <Button onPress={() => reply({ answer: "refused" })} isDisabled={stopped !== null}>
              Refuse
            </Button>
          </div>
        </>
      )}
    </>
  );
}

export function DappSignPage() {
  const { shown, dismiss } = useDappRequests();
  // Leaving the page moves on from a request that stopped waiting (a waiting one stays).
  useEffect(() => dismiss, [dismiss]);

  return (
    <>
      <PageTitle>Signing request</PageTitle>
      <p className="lead">
        A dapp asks this wallet to sign, through the signing API it talks to on this computer. Check
        who asks and what it does; nothing is signed until you press Sign.
      </p>
      {shown === null ? (
        <p data-testid="dapp-none">
          No dapp is waiting for a signature. <Link to="/wallet">Back to the wallet</Link>
        </p>
      ) : (
        <ShownRequest key={shown.request.id} shown={shown} />
      )}
    </>
  );
}
