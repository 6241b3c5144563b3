/**
 * A transaction for another network than the node's ("Sign a transaction", a dapp's request):
 * said plainly, with the box the user must tick before it can be signed.
 * @module
 */
import { Notice } from "../../../ui/Notice.tsx";

export function NetworkWarning({
  lead,
  txNetwork,
  nodeNetwork,
  confirmed,
  onConfirm,
  testId,
}: {
  /** The sentence's start: "This transaction is for the network". */
  readonly lead: string;
  readonly txNetwork: string | null;
  readonly nodeNetwork: string;
  readonly confirmed: boolean;
  readonly onConfirm: (confirmed: boolean) => void;
  readonly testId: string;
}) {
  return (
    <Notice tone="warning" testId={testId}>
      <p>
        {lead} <strong>{txNetwork ?? "none"}</strong>, but this node runs{" "}
        <strong>{nodeNetwork}</strong>.
      </p>
      <label>
        <input type="checkbox" checked={confirmed} onChange={(e) => onConfirm(e.target.checked)} />{" "}
        Sign for {txNetwork ?? "no network"} anyway
      </label>
    </Notice>
  );
}
