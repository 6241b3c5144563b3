/**
 * The backup page's plain logic: the default backup folder (a `backups` folder beside the
 * node's data folder, POSIX or Windows paths as the desktop bridge reports them), a status
 * in words ("verified", "in progress", "failed"), a job's progress as a share, and sizes
 * and durations in words.
 * @module
 */

export function defaultBackupFolder(dataDir: string): string {
  const windows =
    /^[A-Za-z]:\\|^\\\\/.test(dataDir) || (dataDir.includes("\\") && !dataDir.includes("/"));
  const sep = windows ? "\\" : "/";
  const trimmed = dataDir.replace(windows ? /\\+$/ : /\/+$/, "");
  if (trimmed === "" || /^[A-Za-z]:$/.test(trimmed)) return `${trimmed}${sep}backups`;
  const cut = trimmed.lastIndexOf(sep);
  const parent = cut <= 0 ? (cut === 0 ? sep : ".") : trimmed.slice(0, cut);
  return parent.endsWith(sep) ? `${parent}backups` : `${parent}${sep}backups`;
}

/** What the page says for a backup's status. */
export function statusText(status: string): "verified" | "in progress" | "failed" {
  if (status === "backup-done") return "verified";
  if (status === "backup-in-progress") return "in progress";
  return "failed";
}

/** Pages copied over all databases as a share 0–1 (0 before the sizes are known). */
export function progressShare(
  databases: readonly { readonly pages: { readonly done: number; readonly total: number } }[],
): number {
  const total = databases.reduce((s, d) => s + d.pages.total, 0);
  const done = databases.reduce((s, d) => s + d.pages.done, 0);
  return total === 0 ? 0 : Math.min(1, done / total);
}

const UNITS = ["bytes", "KiB", "MiB", "GiB", "TiB"];

export function formatBytes(bytes: number): string {
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${bytes} bytes` : `${v.toFixed(v < 10 ? 1 : 0)} ${UNITS[u]}`;
}

export function formatSeconds(seconds: number): string {
  if (seconds < 1) return "under a second";
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** Seconds between two ISO times, or null. */
export function durationSeconds(startedAt: string, finishedAt: string | null): number | null {
  if (finishedAt === null) return null;
  const s = (Date.parse(finishedAt) - Date.parse(startedAt)) / 1000;
  return Number.isFinite(s) && s >= 0 ? s : null;
}

/** What a backup holds, in words: "blocks, contract state, wallet (1 file)". */
export function contentsText(names: readonly string[]): string {
  const wallet = names.filter((n) => n.startsWith("wallet/")).length;
  const words = names
    .filter((n) => !n.startsWith("wallet/"))
    .map((n) =>
      n === "state"
        ? "contract state"
        : n === "index"
          ? "explorer index"
          : n === "private"
            ? "private state"
            : n === "private/trusted-entities.json"
              ? "trusted entities"
              : n,
    );
  if (wallet > 0) words.push(`wallet (${wallet} file${wallet === 1 ? "" : "s"})`);
  return words.join(", ");
}

export const WEEKDAYS = [
  "Sunday",
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
] as const;
