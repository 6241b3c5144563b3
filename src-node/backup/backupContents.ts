/**
 * What a backup may hold, and how restore reads it without following a
 * link: the exact list of files a backup folder may name (the node's
 * databases, its private state and pins, the wallet's files), checked
 * before restore copies anything, so a crafted manifest cannot write a file
 * a backup never holds (the entity's key, the peers list) into a data
 * folder; and the checks that a backup folder, its manifest and every file
 * restore reads are plain folders and files, never symbolic links, pipes or
 * devices (docs/backup.md "What a crafted backup can and cannot do").
 * @module
 */
import { constants, createWriteStream, lstatSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import type { BackupManifest, ManifestDatabase } from "./backupManifest.ts";
import { BackupError, BackupErrorCode } from "./errors.ts";

/** The SQLite databases by their manifest name (nodeDatabases.ts), at their fixed place. */
const NODE_DATABASES: Readonly<Record<string, string>> = {
  blocks: "blocks.sqlite",
  state: "state.sqlite",
  mempool: "mempool.sqlite",
};

/**
 * The private state of the node's entity (`private` in nodeDatabases.ts):
 * `private/<entity>.sqlite`, the entity named by the rule of
 * p2p/private/entityName.ts (letters, digits, `.`, `_`, `-`; at most 64).
 */
const PRIVATE_STATE = /^private\/[A-Za-z0-9][A-Za-z0-9._-]{0,63}\.sqlite$/;

/**
 * The wallet's files a backup carries (api/routes/appWalletRoutes.ts,
 * api/dappSigning/dappSigning.ts), and the keystores kept aside when the
 * wallet was replaced (store/keepAside.ts: `keystore-replaced-<UTC time>[-N].json`).
 */
const WALLET_FILES: readonly string[] = [
  "wallet/keystore.json",
  "wallet/pending.json",
  "wallet/dapp-signing.json",
];
const KEPT_KEYSTORE =
  /^wallet\/keystore-replaced-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z(-\d{1,4})?\.json$/;

/** Whether `file` (`wallet/<name>`) is one of the wallet's files a backup holds. */
export function isWalletBackupFile(file: string): boolean {
  return WALLET_FILES.includes(file) || KEPT_KEYSTORE.test(file);
}

/** The pinned entities (nodeDatabases.ts), copied as they are. */
const TRUST_FILE = "private/trusted-entities.json";

/**
 * Whether `file` is a plain file (`kind: "file"`, copied as it is) a backup
 * may hold: the pinned entities, the wallet's files. Never
 * `private/entity-key.json` (the entity's secret stays in its data folder)
 * nor anything of the data folder itself (`peers.json`, `node.lock`, …).
 */
function isPlainBackupFile(file: string): boolean {
  return file === TRUST_FILE || isWalletBackupFile(file);
}

/** Whether `d` is an entry a backup may hold: its name, file and kind agree with the list. */
function allowedEntry(d: ManifestDatabase): boolean {
  if (d.kind === "file") return d.name === d.file && isPlainBackupFile(d.file);
  if (d.name === "private") return PRIVATE_STATE.test(d.file);
  return Object.hasOwn(NODE_DATABASES, d.name) && NODE_DATABASES[d.name] === d.file;
}

/**
 * Checks that a manifest names only files a backup may hold, each once.
 * @param path the manifest file (names it in errors).
 * @throws {BackupError} BACKUP_BAD_MANIFEST naming the first entry that is not allowed.
 */
export function checkBackupContents(manifest: BackupManifest, path: string): void {
  const fail = (field: string, reason: string): never => {
    throw new BackupError(
      { code: BackupErrorCode.BadManifest, path, reason: `${field}: ${reason}` },
      `${path}: ${field}: ${reason}`,
    );
  };
  const names = new Set<string>();
  const files = new Set<string>();
  manifest.databases.forEach((d, i) => {
    if (!allowedEntry(d)) {
      fail(
        `databases[${i}]`,
        `${JSON.stringify(d.file)} (${JSON.stringify(d.name)}${d.kind === "file" ? ", a plain file" : ""}) is not a file a backup holds: only ${Object.values(NODE_DATABASES).join(", ")}, private/<entity>.sqlite, ${TRUST_FILE}, ${WALLET_FILES.join(", ")}, wallet/keystore-replaced-<time>.json`,
      );
    }
    if (names.has(d.name) || files.has(d.file)) {
      fail(`databases[${i}]`, `${JSON.stringify(d.file)} is listed twice`);
    }
    names.add(d.name);
    files.add(d.file);
  });
}

function unsafe(path: string, reason: string): BackupError {
  return new BackupError(
    { code: BackupErrorCode.UnsafeFile, path, reason },
    `${path}: ${reason}; restore reads only plain files and folders of the backup`,
  );
}

/**
 * Checks that `path` is a plain folder (`dir`) or file, not a symbolic link;
 * a missing path passes (the caller's read reports it).
 * @throws {BackupError} BACKUP_UNSAFE_FILE.
 */
export function checkPlainEntry(path: string, kind: "dir" | "file"): void {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch {
    return;
  }
  if (st.isSymbolicLink()) throw unsafe(path, "a symbolic link");
  if (kind === "dir" ? !st.isDirectory() : !st.isFile()) {
    throw unsafe(path, kind === "dir" ? "not a folder" : "not a plain file");
  }
}

/**
 * Checks the backup folder, its manifest, and every file the manifest
 * names with the folders on the way (`wallet/`, `private/`): none may be a
 * symbolic link, a pipe or a device.
 * @throws {BackupError} BACKUP_UNSAFE_FILE.
 */
export function checkBackupEntries(folder: string, files: readonly string[]): void {
  checkPlainEntry(folder, "dir");
  for (const file of files) {
    const parts = file.split("/");
    for (let i = 1; i < parts.length; i++) {
      checkPlainEntry(join(folder, ...parts.slice(0, i)), "dir");
    }
    checkPlainEntry(join(folder, file), "file");
  }
}

/**
 * Opens a file of a backup for reading without following a symbolic link
 * (O_NOFOLLOW) and without waiting on a pipe (O_NONBLOCK), so a file
 * swapped for a link or a pipe after the checks above is refused too.
 * @throws {BackupError} BACKUP_UNSAFE_FILE for a link or anything but a plain file;
 *   the file-system error when it cannot be opened.
 */
export async function openBackupFile(path: string): Promise<FileHandle> {
  const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  let handle: FileHandle;
  try {
    handle = await open(path, flags);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ELOOP") throw unsafe(path, "a symbolic link");
    throw e;
  }
  try {
    if (!(await handle.stat()).isFile()) throw unsafe(path, "not a plain file");
  } catch (e) {
    await handle.close();
    throw e;
  }
  return handle;
}

/**
 * Copies a file of a backup (opened by {@link openBackupFile}) to `target`,
 * which must not exist yet.
 * @throws {BackupError} BACKUP_UNSAFE_FILE; the file-system error otherwise.
 */
export async function copyBackupFile(source: string, target: string, mode: number): Promise<void> {
  const input = await openBackupFile(source);
  await pipeline(
    input.createReadStream({ highWaterMark: 1 << 20 }),
    createWriteStream(target, { flags: "wx", mode }),
  );
}
