/**
 * A sent transfer's progress: submitted → pending (waiting for a block; if this node's
 * miner is off, says so and offers to turn it on through the app's mining route) →
 * confirmed (block height, link to the explorer's page of the request key) or failed (the
 * contract's message). Polled on every block of its chain and every few seconds. With
 * `onAnother`, "Send another" under it (`SendAnother`, also for the cross-chain step's panel).
 * @module
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { describeClientError } from "../../../api/clientError.ts";
import { clientErrorOf, unwrap } from "../../../api/clientFailure.ts";
import { queryKeys } from "../../../services/queryClient.ts";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { usePactClient, useRefreshOnBlocks, walletKeys } from "../accounts/useAccountsOnChains.ts";

const POLL_EVERY_MS = 3000;

function MiningOffer() {
  const { client } = useServices();
  const queries = useQueryClient();
  const mining = useQuery({
    queryKey: queryKeys.mining,
    queryFn: () => unwrap(client.mining()),
    refetchInterval: POLL_EVERY_MS,
    retry: false,
  });
  const turnOn = useMutation({
    mutationFn: () => unwrap(client.setMining({ enabled: true })),
    onSuccess: (status) => queries.setQueryData(queryKeys.mining, status),
  });
  // Not shown when the node cannot say (the route answers loopback only) or mines already.
  if (mining.data === undefined || mining.data.enabled) return null;
  return (
    <Notice tone="warning" testId="mining-off">
      <p>
        Mining is off on this node, so no block will include the transfer until it is turned on (or
        another node mines it).
      </p>
      <Button
        tone="primary"
        size="sm"
        isDisabled={turnOn.isPending}
        onPress={() => turnOn.mutate()}
      >
        Turn mining on
      </Button>
      {turnOn.error === null ? null : (
        <p role="alert">{describeClientError(clientErrorOf(turnOn.error))}</p>
      )}
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
  const pact = usePactClient();
  useRefreshOnBlocks();
  const poll = useQuery({
    queryKey: walletKeys.tx(chainId, requestKey),
    queryFn: async () => (await unwrap(pact.poll(chainId, [requestKey]))).get(requestKey) ?? null,
    refetchInterval: (q) => (q.state.data == null ? POLL_EVERY_MS : false),
  });
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
        <Notice tone="error">
          <p>{describeClientError(clientErrorOf(poll.error))}</p>
        </Notice>
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
