/**
 * A sent transfer's progress: submitted → pending (waiting for a block; if nothing on this
 * node will mine it, says why and offers the switch that would, through the app's mining
 * route: `MiningOffer`) →
 * confirmed (block height, link to the explorer's page of the request key) or failed (the
 * contract's message). Polled on every block of its chain and every few seconds. With
 * `onAnother`, "Send another" under it (`SendAnother`, also for the cross-chain step's panel).
 * @module
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { clientErrorWords } from "../../../api/errorWords.ts";
import { miningRefusal } from "../../../api/miningRefusal.ts";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { useRefreshOnBlocks } from "../accounts/useAccountsOnChains.ts";
import { miningQuery, setMiningMutation, txResultQuery } from "../api.ts";

/**
 * Shown while a transfer waits for a block: nothing when this node will mine it (Mining on,
 * or mine on demand, which mines whatever waits); otherwise why not, in words, with the
 * switch that would ("Turn mining on", "Mine on demand"), or where to choose a reward account
 * when mining needs one. Not shown when the node cannot say (the route answers its own app
 * only).
 */
export function MiningOffer({ what = "the transfer" }: { readonly what?: string }) {
  const { client } = useServices();
  const queries = useQueryClient();
  const mining = useQuery(miningQuery(client));
  const turnOn = useMutation(setMiningMutation(client, queries));
  const m = mining.data;
  if (m === undefined) return null;
  if (m.held) {
    return (
      <Notice tone="info" testId="mining-off">
        <p>
          This node is catching up with its peers; it mines again once it has, and {what} then goes
          into a block.
        </p>
      </Notice>
    );
  }
  if (m.enabled || m.onDemand) return null;
  const refusal = turnOn.error === null ? null : miningRefusal(clientErrorOf(turnOn.error), m);
  return (
    <Notice tone="warning" testId="mining-off">
      <p>
        {m.payee === null
          ? `Mining is off on this node and needs a reward account, so no block will include ${what} until another node mines it or you choose a reward account on the Node page.`
          : `Mining is off on this node, so no block will include ${what} until it is turned on (or another node mines it).`}
      </p>
      <div className="notice-actions">
        {m.payee === null ? (
          <Link to="/node">Choose a reward account</Link>
        ) : (
          <>
            {m.onDemandAvailable ? (
              <Button
                tone="primary"
                size="sm"
                isDisabled={turnOn.isPending}
                onPress={() => turnOn.mutate({ onDemand: true })}
              >
                Mine on demand
              </Button>
            ) : null}
            <Button
              tone={m.onDemandAvailable ? "secondary" : "primary"}
              size="sm"
              isDisabled={turnOn.isPending}
              onPress={() => turnOn.mutate({ enabled: true })}
            >
              Turn mining on
            </Button>
          </>
        )}
      </div>
      {refusal === null ? null : <ErrorMessage title={refusal.title} error={refusal.error} />}
    </Notice>
  );
}

export function TransferStatus({
  chainId,
  requestKey,
  onAnother,
}: {
  readonly chainId: number;
  readonly requestKey: string;
  /** When given, a "Send another" button under the status (back to an empty form). */
  readonly onAnother?: (() => void) | undefined;
}) {
  const { pact } = useServices();
  useRefreshOnBlocks();
  const poll = useQuery(txResultQuery(pact, chainId, requestKey));
  const result = poll.data;
  let status: string;
  if (result === undefined) status = "Submitted";
  else if (result === null) status = "Pending: waiting for a block";
  else if (result.outcome.ok)
    status = `Confirmed in block ${result.blockHeight ?? "?"} of chain ${chainId}`;
  else status = `Failed: ${result.outcome.message}`;
  const panel = (
    <Panel id="transfer-status" title="Status">
      <p role="status" data-testid="transfer-status">
        {status}
      </p>
      <dl className="facts">
        <dt>Request key</dt>
        <dd>
          <LongValue value={requestKey} what="request key" testId="request-key" />
        </dd>
      </dl>
      {poll.error === null ? null : (
        <ErrorMessage
          title="Could not ask for the transfer's status."
          error={clientErrorWords(clientErrorOf(poll.error))}
        />
      )}
      {result === null ? <MiningOffer /> : null}
      {result == null ? null : (
        <p>
          <Link to="/explorer/tx/$requestKey" params={{ requestKey }}>
            See the transaction in the explorer
          </Link>
        </p>
      )}
    </Panel>
  );
  return onAnother === undefined ? panel : <SendAnother onAnother={onAnother}>{panel}</SendAnother>;
}

/** A sent transfer's panel with "Send another" under it. */
export function SendAnother({
  onAnother,
  children,
}: {
  readonly onAnother: () => void;
  readonly children: ReactNode;
}) {
  return (
    <>
      {children}
      <Button onPress={onAnother}>Send another</Button>
    </>
  );
}
