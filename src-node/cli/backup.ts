/**
 * `weft backup list --backup-directory DIR [--json]`: the backups in a
 * backup directory, oldest first, with status, network, size, cut height and
 * start time (backup/listBackups.ts); failed ones with their reason. `--json`
 * prints the entries as one JSON array for scripts. Backups are made through
 * the node's API (`POST {base_url}/make-backup`); there is no automatic
 * retention: delete old folders by hand (docs/backup.md).
 * Exit codes: 0, 1 when the directory cannot be read, 2 usage.
 * @module
 */
import { statSync } from "node:fs";
import { type BackupListEntry, listBackups } from "../backup/listBackups.ts";
import { resolvePath } from "../config/optionChecks.ts";
import { isNodeError } from "../errors/nodeError.ts";
import { CliErrorCode, cliError, usageError } from "./errors.ts";
import type { CliIo } from "./io.ts";

export const BACKUP_USAGE = `Usage: weft backup list --backup-directory DIR [--json]

Lists the backups in DIR (the folder a node writes its backups to) with their status
(backup-done, backup-in-progress, backup-failed), network, size and cut
height. Backups are made with POST {base_url}/make-backup and restored with
weft restore DIR/<id>. Nothing deletes old backups: remove their folders.

Options:
  --backup-directory DIR   the backup directory
  --json                   print a JSON array instead of a table
  --help                   this text
`;

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = bytes / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

function table(entries: readonly BackupListEntry[]): string {
  const rows = [
    ["ID", "STATUS", "NETWORK", "SIZE", "CUT HEIGHT", "DATABASES", "STARTED"],
    ...entries.map((e) => [
      e.id,
      e.status === "backup-in-progress" && e.pages.total > 0
        ? `${e.status} ${Math.floor((100 * e.pages.done) / e.pages.total)}%`
        : e.status,
      e.network ?? "?",
      e.status === "backup-done" ? size(e.bytes) : "-",
      e.cut === null ? "-" : String(e.cut.height),
      e.databases.join(",") || "-",
      e.startedAt ?? "-",
    ]),
  ];
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length))) ?? [];
  const lines = rows.map((r) =>
    r
      .map((cell, c) => cell.padEnd(widths[c] ?? 0))
      .join("  ")
      .trimEnd(),
  );
  for (const e of entries) {
    if (e.error !== null) lines.push(`${e.id}: ${e.error.code}: ${e.error.message}`);
  }
  return `${lines.join("\n")}\n`;
}

function parseListArgs(args: readonly string[]): {
  directory?: string;
  json: boolean;
  help: boolean;
} {
  let directory: string | undefined;
  let json = false;
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--help" || arg === "-h") help = true;
    else if (arg === "--json") json = true;
    else if (arg === "--backup-directory" || arg.startsWith("--backup-directory=")) {
      if (directory !== undefined) throw usageError("--backup-directory: given more than once");
      const value =
        arg === "--backup-directory" ? args[++i] : arg.slice("--backup-directory=".length);
      if (
        value === undefined ||
        value === "" ||
        (arg === "--backup-directory" && value.startsWith("--"))
      )
        throw usageError("--backup-directory: expects a value");
      directory = value;
    } else throw usageError(`${arg}: unknown flag (see weft backup --help)`);
  }
  return { json, help, ...(directory === undefined ? {} : { directory }) };
}

export async function backupCommand(args: string[], io: CliIo): Promise<number> {
  try {
    const [sub, ...rest] = args;
    if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") {
      io.stdout.write(BACKUP_USAGE);
      return sub === undefined ? 2 : 0;
    }
    if (sub !== "list") throw usageError(`${sub}: unknown subcommand (weft backup list)`);
    const parsed = parseListArgs(rest);
    if (parsed.help) {
      io.stdout.write(BACKUP_USAGE);
      return 0;
    }
    if (parsed.directory === undefined) throw usageError("--backup-directory: missing");
    const directory = resolvePath(parsed.directory, process.cwd());
    let isDir = false;
    try {
      isDir = statSync(directory).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) {
      throw cliError(CliErrorCode.ReadFailed, directory, "", "not a readable directory");
    }
    const entries = listBackups(directory);
    io.stdout.write(
      parsed.json
        ? `${JSON.stringify(entries, null, 2)}\n`
        : entries.length === 0
          ? "no backups\n"
          : table(entries),
    );
    return 0;
  } catch (e) {
    if (isNodeError(e)) {
      io.stderr.write(`weft backup: ${e.message}\n`);
      return isNodeError(e, CliErrorCode.Usage) ? 2 : 1;
    }
    throw e;
  }
}
