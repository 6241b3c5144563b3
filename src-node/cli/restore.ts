/**
 * `weft restore BACKUP_DIR [--data-dir DIR]`: restores one backup folder
 * (`<backup-directory>/<id>`) into a data directory (default: the OS data
 * folder, as `weft node`), after checking its manifest, checksums and
 * SQLite integrity; refused while a node runs on that data
 * (backup/restoreBackup.ts, docs/backup.md). Steps go to standard error, the
 * summary (network, folder, cut height) to standard output.
 * Exit codes: 0 restored, 1 refused or failed, 2 usage.
 * @module
 */
import { resolve } from "node:path";
import { restoreBackup } from "../backup/restoreBackup.ts";
import { defaultDataDir } from "../config/defaultDataDir.ts";
import { resolvePath } from "../config/optionChecks.ts";
import { isNodeError } from "../errors/nodeError.ts";
import { CliErrorCode, usageError } from "./errors.ts";
import type { CliIo } from "./io.ts";

export const RESTORE_USAGE = `Usage: weft restore BACKUP_DIR [--data-dir DIR]

Restores a backup folder (<backup-directory>/<id>, made by make-backup) into
DIR/<network>/. It checks the manifest, every file's SHA-256 and SQLite's
integrity first, and refuses while a node runs on DIR. The databases it
replaces are moved to DIR/<network>/replaced-<time>/, never deleted.

Options:
  --data-dir DIR   the node's data directory (default ${defaultDataDir()})
  --help           this text
`;

function parseRestoreArgs(args: readonly string[]): {
  folder?: string;
  dataDir?: string;
  help: boolean;
} {
  let folder: string | undefined;
  let dataDir: string | undefined;
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--help" || arg === "-h") help = true;
    else if (arg === "--data-dir" || arg.startsWith("--data-dir=")) {
      if (dataDir !== undefined) throw usageError("--data-dir: given more than once");
      const value = arg === "--data-dir" ? args[++i] : arg.slice("--data-dir=".length);
      if (value === undefined || value === "" || (arg === "--data-dir" && value.startsWith("--")))
        throw usageError("--data-dir: expects a value");
      dataDir = value;
    } else if (arg.startsWith("-")) {
      throw usageError(`${arg}: unknown flag (see weft restore --help)`);
    } else {
      if (folder !== undefined)
        throw usageError(`${arg}: only one BACKUP_DIR is restored at a time`);
      folder = arg;
    }
  }
  return {
    help,
    ...(folder === undefined ? {} : { folder }),
    ...(dataDir === undefined ? {} : { dataDir }),
  };
}

export async function restoreCommand(args: string[], io: CliIo): Promise<number> {
  try {
    const parsed = parseRestoreArgs(args);
    if (parsed.help) {
      io.stdout.write(RESTORE_USAGE);
      return 0;
    }
    if (parsed.folder === undefined)
      throw usageError("BACKUP_DIR: missing (see weft restore --help)");
    const dataDir =
      parsed.dataDir === undefined ? defaultDataDir() : resolvePath(parsed.dataDir, process.cwd());
    const result = await restoreBackup({
      backupFolder: resolve(parsed.folder),
      dataDir,
      progress: (line) => io.stderr.write(`weft restore: ${line}\n`),
    });
    io.stdout.write(
      `restored ${result.id}: network ${result.network}, cut height ${result.cut?.height ?? "?"}, into ${result.networkDir}\n`,
    );
    if (result.replacedDir !== undefined) {
      io.stdout.write(`previous databases kept in ${result.replacedDir}\n`);
    }
    return 0;
  } catch (e) {
    if (isNodeError(e)) {
      io.stderr.write(`weft restore: ${e.message}\n`);
      return isNodeError(e, CliErrorCode.Usage) ? 2 : 1;
    }
    throw e;
  }
}
