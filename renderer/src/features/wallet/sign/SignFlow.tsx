/**
 * Signing a transaction prepared elsewhere: paste it ("Transaction") or open a file; it is
 * read strictly (`signRequest.ts`) and shown in full — network, chain, sender, code, every
 * signer with its capabilities and whether this wallet holds its key, gas, time to live,
 * expiry, nonce — before anything can be signed. A network other than the node's must be
 * confirmed. "Sign" signs with every key held here; "Copy" / "Save" give the result in the
 * form it came in; "Send" (every signature present) runs the `/local` preflight, `/send`, then
 * the transfer page's status.
 * @module
 */
import { useId, useState } from "react";
import type { CommandPayload } from "../../../../../src-node/command/commandTypes.ts";
import { formatDateTime } from "../../../format/dateTime.ts";
import { prettyJson } from "../../../format/prettyJson.ts";
import { useServices } from "../../../services/services.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { usePendingTransfers } from "../crosschain/PendingProvider.tsx";
import { commandFacts } from "../history/commandFacts.ts";
import { newHistoryEntry } from "../history/historyModel.ts";
import type { SigningAccount } from "../transfer/TransferFlow.tsx";
import { TransferStatus } from "../transfer/TransferStatus.tsx";
import { NetworkWarning } from "./NetworkWarning.tsx";
import { SignActions, useSignActions } from "./SignActions.tsx";
import { SignerList } from "./SignerList.tsx";
import {
  isComplete,
  parseSignRequest,
  type SignRequest,
  serializeSignRequest,
} from "./signRequest.ts";

export type SignFlowProps = {
  readonly accounts: readonly SigningAccount[];
  readonly sign: (keyId: string, requestKey: string) => Promise<string>;
};

function codeOf(payload: CommandPayload): string {
  const p = payload.payload;
  if ("exec" in p) return p.exec.code;
  return `continuation of ${p.cont.pactId}, step ${p.cont.step}${p.cont.rollback ? " (rollback)" : ""}${p.cont.proof === null ? "" : ", with a proof"}`;
}

function dataOf(payload: CommandPayload): string | null {
  const p = payload.payload;
  const data = "exec" in p ? p.exec.data : p.cont.data;
  return data === null || Object.keys(data).length === 0 ? null : prettyJson(data);
}

/** Everything a transaction does, as signed (also the review of dapps' requests, dapp/). */
export function Review({
  request,
  accounts,
}: {
  readonly request: SignRequest;
  readonly accounts: readonly SigningAccount[];
}) {
  const { payload } = request;
  const { meta } = payload;
  const data = dataOf(payload);
  const expiry = new Date((meta.creationTime + meta.ttl) * 1000);
  return (
    <dl className="facts" data-testid="sign-review">
      <dt>Network</dt>
      <dd data-testid="sign-network">{payload.networkId ?? "none (network-less)"}</dd>
      <dt>Chain</dt>
      <dd data-testid="sign-chain">{meta.chainId}</dd>
      <dt>Sender (pays gas)</dt>
      <dd data-testid="sign-sender">{meta.sender === "" ? "—" : meta.sender}</dd>
      <dt>Code</dt>
      <dd>
        <pre className="code" data-testid="sign-code">
          {codeOf(payload)}
        </pre>
      </dd>
      {data === null ? null : (
        <>
          <dt>Data</dt>
          <dd>
            <pre className="code">{data}</pre>
          </dd>
        </>
      )}
      <dt>Signers</dt>
      <dd>
        <SignerList request={request} accounts={accounts} testId="sign-signers" />
      </dd>
      <dt>Gas</dt>
      <dd data-testid="sign-gas">
        limit {meta.gasLimit.toLocaleString("en")} × price {meta.gasPrice}
      </dd>
      <dt>Time to live</dt>
      <dd>{meta.ttl.toLocaleString("en")} s</dd>
      <dt>Created</dt>
      <dd>{formatDateTime(meta.creationTime * 1000)}</dd>
      <dt>Expires</dt>
      <dd data-testid="sign-expiry">
        {formatDateTime(expiry.getTime())}
        {expiry.getTime() < Date.now() ? " (expired: the node will refuse it)" : ""}
      </dd>
      <dt>Nonce</dt>
      <dd>{payload.nonce}</dd>
      <dt>Request key</dt>
      <dd>
        <code data-testid="sign-hash">{request.hash}</code>
      </dd>
    </dl>
  );
}

export function SignFlow({ accounts, sign }: SignFlowProps) {
  const { config } = useServices();
  const { recordHistory } = usePendingTransfers();
  const textId = useId();
  const fileId = useId();
  const [text, setText] = useState("");
  const [signed, setSigned] = useState<SignRequest | null>(null);
  const [confirmNetwork, setConfirmNetwork] = useState(false);
  const [sent, setSent] = useState<{ chainId: number; requestKey: string } | null>(null);

  const parsed = text.trim() === "" ? null : parseSignRequest(text);
  const request = signed ?? (parsed?.ok ? parsed.value : null);

  const onText = (value: string) => {
    setText(value);
    setSigned(null);
    setConfirmNetwork(false);
  };

  const onFile = async (file: File | undefined) => {
    if (file === undefined) return;
    onText(await file.text());
  };

  if (sent !== null) return <TransferStatus chainId={sent.chainId} requestKey={sent.requestKey} />;

  return (
    <>
      <Panel id="sign-input" title="Paste or open">
        <div className="field">
          <label className="field-label" htmlFor={textId}>
            Transaction
          </label>
          <textarea
            id={textId}
            className="input"
            rows={8}
            spellCheck={false}
            value={text}
            onChange={(e) => onText(e.target.value)}
            placeholder="hash: …  sigs: …  cmd: …   or   {&quot;cmd&quot;: …, &quot;sigs&quot;: […]}"
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={fileId}>
            Or open a file
          </label>
          <input
            id={fileId}
            type="file"
            accept=".yaml,.yml,.json,.txt"
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
        </div>
        {parsed !== null && !parsed.ok ? (
          <ErrorMessage testId="sign-problem" error={parsed.error} />
        ) : null}
      </Panel>
      {request === null ? null : (
        <SignReviewPanel
          // A new transaction starts with no failure and nothing running.
          key={text}
          request={request}
          accounts={accounts}
          sign={sign}
          networkId={config.networkId}
          confirmNetwork={confirmNetwork}
          onConfirmNetwork={setConfirmNetwork}
          onSigned={setSigned}
          onSent={(chainId, requestKey) => {
            // In the history (a multi-signature transfer prepared here stays one entry).
            recordHistory(
              newHistoryEntry({
                ...commandFacts(request.payload),
                requestKey,
                kind: "signed",
                createdAt: Date.now(),
              }),
            );
            setSent({ chainId, requestKey });
          }}
        />
      )}
    </>
  );
}

function SignReviewPanel({
  request,
  accounts,
  sign,
  networkId,
  confirmNetwork,
  onConfirmNetwork,
  onSigned,
  onSent,
}: SignFlowProps & {
  readonly request: SignRequest;
  readonly networkId: string;
  readonly confirmNetwork: boolean;
  readonly onConfirmNetwork: (confirmed: boolean) => void;
  readonly onSigned: (signed: SignRequest) => void;
  readonly onSent: (chainId: number, requestKey: string) => void;
}) {
  const actions = useSignActions({ request, accounts, sign, onSigned, onSent });
  const networkDiffers = request.payload.networkId !== networkId;
  const mine = actions.held;
  return (
    <Panel id="sign-review-panel" title="What is signed">
      <Review request={request} accounts={accounts} />
      {networkDiffers ? (
        <NetworkWarning
          lead="This transaction is for the network"
          txNetwork={request.payload.networkId}
          nodeNetwork={networkId}
          confirmed={confirmNetwork}
          onConfirm={onConfirmNetwork}
          testId="sign-network-warning"
        />
      ) : null}
      <p data-testid="sign-summary">
        {isComplete(request)
          ? "Every signature is present: it can be sent."
          : mine.length > 0
            ? `This wallet holds ${mine.length} of the missing keys.`
            : "This wallet holds none of the missing keys: pass it on to the other signers."}
      </p>
      <SignActions
        state={actions}
        blocked={networkDiffers && !confirmNetwork}
        failureTestId="sign-failure"
      />
      <details>
        <summary>The transaction as it will be copied or saved</summary>
        <pre className="code" data-testid="sign-output">
          {serializeSignRequest(request)}
        </pre>
      </details>
    </Panel>
  );
}
