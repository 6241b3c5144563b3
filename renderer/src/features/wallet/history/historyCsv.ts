/**
 * The history as CSV (RFC 4180): a header row, one row per entry newest first, CRLF line ends;
 * a field holding a comma, a double quote, a CR or LF is quoted with its quotes doubled. Text a
 * spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or CR: an account
 * name or a contract's message can) gets a leading `'`, so opening the file runs nothing.
 * @module
 */
import type { HistoryEntry } from "../../../../../src-node/walletFiles/historyEntry.ts";
import { chainsText, historyStatusText, kindText, sortHistory } from "./historyModel.ts";

export const HISTORY_CSV_HEADER = [
  "Time (UTC)",
  "Request key",
  "Kind",
  "Status",
  "Amount",
  "From",
  "To",
  "Chains",
  "Fee",
  "Block height",
] as const;

/** One field: neutralized when it looks like a formula, quoted when it must be. */
export function csvField(value: string, opts: { readonly text?: boolean } = {}): string {
  const v = opts.text !== false && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function csvRow(
  fields: readonly string[],
  numeric: ReadonlySet<number> = new Set(),
): string {
  return fields.map((f, i) => csvField(f, { text: !numeric.has(i) })).join(",");
}

// Amount, fee and block height are numbers the wallet wrote: never neutralized.
const NUMERIC = new Set([4, 8, 9]);

/** The whole file, header first, newest entry first, ending with CRLF. */
export function historyCsv(entries: readonly HistoryEntry[]): string {
  const rows = sortHistory(entries).map((e) =>
    csvRow(
      [
        new Date(e.createdAt).toISOString(),
        e.requestKey,
        kindText(e),
        historyStatusText(e),
        e.amount ?? "",
        e.sender ?? "",
        e.receiver ?? "",
        chainsText(e),
        e.fee ?? "",
        e.blockHeight === null ? "" : String(e.blockHeight),
      ],
      NUMERIC,
    ),
  );
  return `${[csvRow(HISTORY_CSV_HEADER), ...rows].join("\r\n")}\r\n`;
}

/** The file's name: `weft-history-<network>-<date>.csv`. */
export function historyCsvName(networkId: string, now: Date): string {
  return `weft-history-${networkId.replace(/[^A-Za-z0-9_-]/g, "_")}-${now.toISOString().slice(0, 10)}.csv`;
}
