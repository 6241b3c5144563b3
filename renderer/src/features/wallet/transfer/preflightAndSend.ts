/**
 * How the wallet sends a signed command, wherever it was signed (the transfer form, a
 * multi-signature account's creation and transfer, "Sign a transaction"): first the node's
 * `/local` preflight with signature checks, so a command that would fail costs no gas, then
 * `/send`. The steps are reported in words while they run; a failure comes back in words.
 * @module
 */
import type { Command } from "../../../../../src-node/command/commandTypes.ts";
import { describeClientError } from "../../../api/clientError.ts";
import type { PactClient } from "../../../api/pactClient.ts";

/** Null once the node took the command, else why not. */
export async function preflightAndSend(
  pact: Pick<PactClient, "preflight" | "send">,
  chainId: number,
  command: Command,
  progress: (step: string) => void = () => {},
): Promise<string | null> {
  progress("Checking with the node first…");
  const pre = await pact.preflight(chainId, command);
  if (!pre.ok) return describeClientError(pre.error);
  if (!pre.value.result.outcome.ok) {
    return `The node's check refused it, so nothing was sent: ${pre.value.result.outcome.message}`;
  }
  progress("Sending…");
  const sent = await pact.send(chainId, [command]);
  return sent.ok ? null : describeClientError(sent.error);
}
