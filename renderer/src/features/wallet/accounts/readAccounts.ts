/**
 * Reads accounts on one chain with one `/local` (the batched command of
 * `accountDetails.ts`), throwing a `ClientFailure` for the query cache when the node
 * cannot answer or the read fails. Plain (no React): the wallet's hooks and the
 * `wallet` benchmark call it.
 * @module
 */
import { commandModel } from "../../../../../src-node/command/commandModel.ts";
import { ClientErrorCode } from "../../../api/clientError.ts";
import { ClientFailure, unwrap } from "../../../api/clientFailure.ts";
import type { PactClient } from "../../../api/pactClient.ts";
import {
  type AccountOnChain,
  accountDetailsPayload,
  parseAccountDetails,
} from "./accountDetails.ts";

export async function readAccounts(
  pact: PactClient,
  networkId: string,
  chainId: number,
  accounts: readonly string[],
): Promise<readonly AccountOnChain[]> {
  const unsigned = commandModel.buildCommand(
    accountDetailsPayload(networkId, chainId, accounts, Math.floor(Date.now() / 1000)),
  );
  const result = await unwrap(pact.local(chainId, { ...unsigned, sigs: [] }));
  const bad = (reason: string) =>
    new ClientFailure({
      code: ClientErrorCode.BadResponse,
      url: `chain ${chainId} /local`,
      reason,
    });
  if (!result.outcome.ok) throw bad(result.outcome.message);
  const parsed = parseAccountDetails(result.outcome.data, accounts);
  if (!parsed.ok) throw bad(parsed.error);
  return parsed.value;
}
