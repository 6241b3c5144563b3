/**
 * Says, on every explorer page, when the node's explorer index is still being built (first
 * start, after a restore or an upgrade): transactions, accounts and modules it has not
 * reached yet are missing meanwhile. Nothing is shown once it is up to date.
 * @module
 */
import { useQuery } from "@tanstack/react-query";
import { formatInteger } from "../../../format/number.ts";
import { useServices } from "../../../services/services.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { indexStatusQuery } from "../api.ts";

export function IndexStatus() {
  const { client } = useServices();
  const status = useQuery(indexStatusQuery(client));
  if (status.data?.state !== "catching-up") return null;
  const { indexedBlocks, totalBlocks } = status.data;
  return (
    <Notice tone="info" testId="index-catching-up">
      <p>
        The explorer's index is catching up ({formatInteger(indexedBlocks)} of{" "}
        {formatInteger(totalBlocks)} blocks). Transactions, accounts and modules of the blocks it
        has not reached yet are missing until then.
      </p>
    </Notice>
  );
}
