/**
 * The renderer's side of `<dataDir>/<network>/wallet/pending.json`, kept by the node through
 * `GET/PUT /app/api/wallet/pending` (docs/wallet.md "Cross-chain transfers"): reading the
 * node's answer `{pending: <file> | null}` into every record, and writing the file to store
 * (what is kept, newest first). The file's shape and its one parser are
 * `src-node/walletFiles/pendingFile.ts`, which the node checks every save with too.
 * @module
 */
import type { HistoryEntry } from "../../../../../src-node/walletFiles/historyEntry.ts";
import type { MultisigAccount } from "../../../../../src-node/walletFiles/multisigAccount.ts";
import {
  MAX_MULTISIG,
  MAX_PENDING,
  PENDING_FORMAT,
  PENDING_VERSION,
  type PendingFile,
  type PendingTransfer,
  parsePendingFile,
} from "../../../../../src-node/walletFiles/pendingFile.ts";
import { type Decoded, decode, record } from "../../../api/decode.ts";
import { capHistory } from "../history/historyModel.ts";
import { isActive } from "./pendingTransfer.ts";

/** Everything the file holds, read. */
export type WalletRecords = {
  readonly transfers: readonly PendingTransfer[];
  readonly history: readonly HistoryEntry[];
  readonly multisig: readonly MultisigAccount[];
};

/** The node's answer `{pending: <file> | null}` → every record (none before the first). */
export function parseWalletRecords(raw: unknown): Decoded<WalletRecords> {
  const answer = decode(raw, (x) => record(x, "answer").pending);
  if (!answer.ok) return answer;
  if (answer.value === null || answer.value === undefined) {
    return { ok: true, value: { transfers: [], history: [], multisig: [] } };
  }
  const file = parsePendingFile(answer.value);
  if (!file.ok) return file;
  const { transfers, history = [], multisig = [] } = file.value;
  return { ok: true, value: { transfers, history, multisig } };
}

/** The node's answer `{pending: <file> | null}` → the transfers (none before the first). */
export function parsePendingAnswer(raw: unknown): Decoded<readonly PendingTransfer[]> {
  const r = parseWalletRecords(raw);
  return r.ok ? { ok: true, value: r.value.transfers } : r;
}

/**
 * The file to store: transfers newest first, at most {@link MAX_PENDING} (active ones always
 * kept); with `records`, the history (newest `MAX_HISTORY`) and the multi-signature accounts
 * (newest {@link MAX_MULTISIG}) too.
 */
export function pendingFileOf(
  transfers: readonly PendingTransfer[],
  records?: Pick<WalletRecords, "history" | "multisig">,
): PendingFile {
  const sorted = [...transfers].sort((a, b) => b.createdAt - a.createdAt);
  const active = sorted.filter(isActive);
  const room = Math.max(0, MAX_PENDING - active.length);
  const kept = new Set([...active, ...sorted.filter((t) => !isActive(t)).slice(0, room)]);
  return {
    format: PENDING_FORMAT,
    version: PENDING_VERSION,
    transfers: sorted.filter((t) => kept.has(t)),
    ...(records === undefined
      ? {}
      : {
          history: capHistory(records.history),
          multisig: [...records.multisig]
            .sort((a, b) => b.createdAt - a.createdAt)
            .slice(0, MAX_MULTISIG),
        }),
  };
}
