/**
 * Pending cross-chain transfers as the user sees them: each one's state in words ("Sent on
 * chain A", "Waiting for the proof", "Finishing on chain B", "Done", "Needs attention" with
 * the reason and Retry), its chains, amount and links to both steps in the explorer; and,
 * while one is under way and nothing on this node mines, why it waits and the switch that
 * would carry it on (transfer/TransferStatus.tsx `MiningOffer`).
 * @module
 */
import { Link } from "@tanstack/react-router";
import type { PendingTransfer } from "../../../../../src-node/walletFiles/pendingFile.ts";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { MiningOffer } from "../transfer/TransferStatus.tsx";
import { usePendingTransfers } from "./PendingProvider.tsx";
import { isActive, stateText } from "./pendingTransfer.ts";

export function PendingTransferState({ transfer }: { readonly transfer: PendingTransfer }) {
  const { retry } = usePendingTransfers();
  const t = transfer;
  return (
    <div className="pending-transfer" data-testid={`xchain-${t.requestKey}`}>
      <p role="status" data-testid="xchain-state">
        {stateText(t)}
      </p>
      <p>
        {t.amount === null ? "Coins" : `${t.amount} coins`} from chain {t.sourceChain} to chain{" "}
        {t.targetChain}
        {t.receiver === null ? "" : ` for ${t.receiver}`}.{" "}
        <Link to="/explorer/tx/$requestKey" params={{ requestKey: t.requestKey }}>
          Step 1 in the explorer
        </Link>
        {t.continuation === null ? null : (
          <>
            {" · "}
            <Link to="/explorer/tx/$requestKey" params={{ requestKey: t.continuation.hash }}>
              Step 2 in the explorer
            </Link>
          </>
        )}
        {" · "}
        <Link to="/wallet/finish/$requestKey" params={{ requestKey: t.requestKey }}>
          Finish page
        </Link>
      </p>
      {t.phase === "attention" ? (
        <Button tone="primary" size="sm" onPress={() => retry(t.requestKey)}>
          Retry
        </Button>
      ) : null}
    </div>
  );
}

/** Every transfer the wallet knows, newest first (nothing when there is none). */
export function PendingTransfers() {
  const { transfers, problem } = usePendingTransfers();
  if (transfers.length === 0 && problem === null) return null;
  return (
    <Panel id="xchain-transfers" title="Cross-chain transfers">
      {problem === null ? null : <ErrorMessage error={problem} />}
      {/* Steps wait for blocks: say so when nothing on this node mines them. */}
      {transfers.some(isActive) ? <MiningOffer what="the transfers' next steps" /> : null}
      <ul className="plain-list">
        {transfers.map((t) => (
          <li key={t.requestKey}>
            <PendingTransferState transfer={t} />
          </li>
        ))}
      </ul>
    </Panel>
  );
}
