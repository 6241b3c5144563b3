/**
 * One look at the node for the history's open entries (prepared or pending): one `/poll` per
 * chain for the request keys waiting there; a found result makes the entry succeeded or failed
 * with its fee and block, a prepared one past its expiry becomes expired. A chain whose poll
 * fails is left as it was (the next tick asks again), so nothing here throws.
 * @module
 */
import type { HistoryEntry } from "../../../../../src-node/walletFiles/historyEntry.ts";
import type { PactClient } from "../../../api/pactClient.ts";
import { applyPoll, isOpen } from "./historyModel.ts";

/** Request keys per `/poll`, well under the node's limit. */
const KEYS_PER_POLL = 50;

/** The entries that changed, by request key (empty when none did). */
export async function pollHistory(
  entries: readonly HistoryEntry[],
  pact: Pick<PactClient, "poll">,
  nowSeconds: number,
): Promise<ReadonlyMap<string, HistoryEntry>> {
  const changed = new Map<string, HistoryEntry>();
  const byChain = new Map<number, HistoryEntry[]>();
  for (const e of entries.filter(isOpen)) {
    const list = byChain.get(e.chain) ?? [];
    if (list.length < KEYS_PER_POLL) list.push(e);
    byChain.set(e.chain, list);
  }
  for (const [chain, list] of byChain) {
    const polled = await pact.poll(
      chain,
      list.map((e) => e.requestKey),
    );
    if (!polled.ok) continue;
    for (const e of list) {
      const r = polled.value.get(e.requestKey);
      const next = applyPoll(
        e,
        r === undefined
          ? { found: false }
          : {
              found: true,
              ok: r.outcome.ok,
              gas: r.gas,
              blockHeight: r.blockHeight,
              message: r.outcome.ok ? null : r.outcome.message,
            },
        nowSeconds,
      );
      if (next !== e) changed.set(e.requestKey, next);
    }
  }
  return changed;
}
