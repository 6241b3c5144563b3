/**
 * How the wallet sends a signed command, wherever it was signed (the transfer form, a
 * multi-signature account's creation and transfer, "Sign a transaction"): first the node's
 * `/local` preflight with signature checks, so a command that would fail costs no gas, then
 * `/send`. The steps are reported in words while they run; a failure comes back in words
 * (with the node's technical detail for "Details").
 * @module
 */
import type { Command } from "../../../../../src-node/command/commandTypes.ts";
import {
  clientErrorWords,
  type ErrorWords,
  plainError,
  withLead,
} from "../../../api/errorWords.ts";
import type { PactClient } from "../../../api/pactClient.ts";

/** Null once the node took the command, else why not. */
export async function preflightAndSend(
  pact: Pick<PactClient, "preflight" | "send">,
  chainId: number,
  command: Command,
  progress: (step: string) => void = () => {
    // No one shows the steps.
  },
): Promise<ErrorWords | null> {
  progress("Checking with the node before sending…");
  const pre = await pact.preflight(chainId, command);
  if (!pre.ok) return withLead("Nothing was sent.", clientErrorWords(pre.error));
  if (!pre.value.result.outcome.ok) {
    return plainError(
      `Nothing was sent: the node's check before sending (preflight) found that it would fail: ${pre.value.result.outcome.message}`,
    );
  }
  progress("Sending…");
  const sent = await pact.send(chainId, [command]);
  return sent.ok ? null : withLead("The node did not take it.", clientErrorWords(sent.error));
}
