/**
 * The manifest of one backup (`<backup-directory>/<id>/manifest.json`): what
 * the backup holds and where its job stands. The job writes it when it
 * starts, as it progresses and when it ends, so the status survives a
 * restart of the node; restore checks the files against it. docs/backup.md
 * describes every field.
 *
 * {@link parseManifest} checks every field of a manifest read from disk
 * (parse, don't cast); {@link manifestText} writes one.
 * @module
 */
import type { CutJson } from "../chain/cutJson.ts";
import { isBackupId, MAX_ID_LENGTH } from "./backupId.ts";
import { BackupError, BackupErrorCode } from "./errors.ts";
import type { ProcessRecord } from "./processLiveness.ts";

export const MANIFEST_FILE = "manifest.json";
/** Bumped when a field changes meaning; a newer manifest is refused, not guessed at. */
export const MANIFEST_FORMAT = 1;

export const BackupStatus = {
  InProgress: "backup-in-progress",
  Done: "backup-done",
  Failed: "backup-failed",
} as const;
export type BackupStatusValue = (typeof BackupStatus)[keyof typeof BackupStatus];

/** One block per chain: a cut's heads, or the newest block a database holds per chain. */
export type ChainHeads = Readonly<
  Record<string, { readonly height: number; readonly hash: string }>
>;

export type ManifestDatabase = {
  /** `blocks`, `state`, … */
  readonly name: string;
  /** The file in the backup folder (and in `dataDir/<network>/` once restored). */
  readonly file: string;
  /** Pages copied and to copy (SQLite pages); both 0 until the copy starts. */
  readonly pages: { readonly done: number; readonly total: number };
  /** Size of the copy in bytes, once copied. */
  readonly bytes: number | null;
  /** SHA-256 of the copy (hex), once copied. */
  readonly sha256: string | null;
  /** Per chain, the newest block the copy holds (blocks: the cut's heads), once copied. */
  readonly heads: ChainHeads | null;
  /** `file` for a plain file copied as it is (the wallet's); absent for a SQLite database. */
  readonly kind?: "file" | undefined;
};

/** The process running the job (processLiveness.ts: pid, host, boot time, random token). */
export type BackupOwner = ProcessRecord;

export type BackupManifest = {
  readonly format: number;
  readonly id: string;
  readonly status: BackupStatusValue;
  readonly network: string;
  /** The Weft release that wrote the backup. */
  readonly softwareVersion: string;
  /** Whether the contract-state database was asked for. */
  readonly backupPact: boolean;
  /** ISO 8601. */
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly owner: BackupOwner;
  /** In the order they were copied. */
  readonly databases: readonly ManifestDatabase[];
  /** The best cut of the copied block database (what a restored node serves), once copied. */
  readonly cut: CutJson | null;
  /** Why the job failed (`backup-failed` only). */
  readonly error: { readonly code: string; readonly message: string } | null;
};

/** The manifest as written: JSON, two-space indented, one trailing newline. */
export function manifestText(m: BackupManifest): string {
  return `${JSON.stringify(m, null, 2)}\n`;
}

type Fail = (field: string, reason: string) => never;

function record(v: unknown, field: string, fail: Fail): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) fail(field, "expected an object");
  return v as Record<string, unknown>;
}

function str(v: unknown, field: string, fail: Fail): string {
  if (typeof v !== "string") fail(field, "expected a string");
  return v as string;
}

function nat(v: unknown, field: string, fail: Fail): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) {
    fail(field, "expected a non-negative integer");
  }
  return v as number;
}

function orNull<T>(v: unknown, parse: (v: unknown) => T): T | null {
  return v === null ? null : parse(v);
}

function heads(v: unknown, field: string, fail: Fail): ChainHeads {
  const r = record(v, field, fail);
  const out: Record<string, { height: number; hash: string }> = {};
  for (const [chain, head] of Object.entries(r)) {
    if (!/^(0|[1-9][0-9]*)$/.test(chain)) fail(`${field}.${chain}`, "expected a chain id key");
    const h = record(head, `${field}.${chain}`, fail);
    out[chain] = {
      height: nat(h.height, `${field}.${chain}.height`, fail),
      hash: str(h.hash, `${field}.${chain}.hash`, fail),
    };
  }
  return out;
}

function cutJson(v: unknown, fail: Fail): CutJson {
  const c = record(v, "cut", fail);
  if (c.origin !== null) fail("cut.origin", "expected null");
  return {
    hashes: heads(c.hashes, "cut.hashes", fail),
    origin: null,
    weight: str(c.weight, "cut.weight", fail),
    height: nat(c.height, "cut.height", fail),
    instance: str(c.instance, "cut.instance", fail),
    id: str(c.id, "cut.id", fail),
  };
}

function database(v: unknown, field: string, fail: Fail): ManifestDatabase {
  const d = record(v, field, fail);
  const file = str(d.file, `${field}.file`, fail);
  // Restore joins it to the data folder: a plain file name, or one in the wallet's or the
  // private state's folder.
  if (!/^((wallet|private)\/)?[a-zA-Z0-9_-][a-zA-Z0-9_.-]*$/.test(file)) {
    fail(`${field}.file`, "expected a plain file name (or wallet/<name>, private/<name>)");
  }
  if (d.kind !== undefined && d.kind !== "file") fail(`${field}.kind`, 'expected "file"');
  const pages = record(d.pages, `${field}.pages`, fail);
  const sha256 = orNull(d.sha256, (x) => str(x, `${field}.sha256`, fail));
  if (sha256 !== null && !/^[0-9a-f]{64}$/.test(sha256)) {
    fail(`${field}.sha256`, "expected 64 lower-case hex characters");
  }
  return {
    name: str(d.name, `${field}.name`, fail),
    file,
    pages: {
      done: nat(pages.done, `${field}.pages.done`, fail),
      total: nat(pages.total, `${field}.pages.total`, fail),
    },
    bytes: orNull(d.bytes, (x) => nat(x, `${field}.bytes`, fail)),
    sha256,
    heads: orNull(d.heads, (x) => heads(x, `${field}.heads`, fail)),
    ...(d.kind === "file" ? { kind: "file" as const } : {}),
  };
}

const STATUSES: readonly string[] = Object.values(BackupStatus);

/**
 * Parses the text of a manifest file.
 * @param path names the file in errors.
 * @throws {BackupError} BACKUP_BAD_MANIFEST naming the first bad field.
 */
export function parseManifest(text: string, path: string): BackupManifest {
  const fail: Fail = (field, reason) => {
    throw new BackupError(
      { code: BackupErrorCode.BadManifest, path, reason: `${field}: ${reason}` },
      `${path}: ${field}: ${reason}`,
    );
  };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return fail("(file)", `not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const m = record(doc, "(file)", fail);
  const format = nat(m.format, "format", fail);
  if (format !== MANIFEST_FORMAT) {
    fail("format", `format ${format} is not known to this Weft (it reads ${MANIFEST_FORMAT})`);
  }
  // The id names the backup's folder: only an id backupId.ts accepts, never a path.
  const id = str(m.id, "id", fail);
  if (!isBackupId(id)) {
    fail("id", `expected 1 to ${MAX_ID_LENGTH} of the characters a-zA-Z0-9_-`);
  }
  const status = str(m.status, "status", fail);
  if (!STATUSES.includes(status)) fail("status", `expected one of ${STATUSES.join(", ")}`);
  if (typeof m.backupPact !== "boolean") fail("backupPact", "expected true or false");
  const owner = record(m.owner, "owner", fail);
  if (!Array.isArray(m.databases)) fail("databases", "expected an array");
  const error = orNull(m.error, (x) => {
    const e = record(x, "error", fail);
    return {
      code: str(e.code, "error.code", fail),
      message: str(e.message, "error.message", fail),
    };
  });
  return {
    format,
    id,
    status: status as BackupStatusValue,
    network: str(m.network, "network", fail),
    softwareVersion: str(m.softwareVersion, "softwareVersion", fail),
    backupPact: m.backupPact as boolean,
    startedAt: str(m.startedAt, "startedAt", fail),
    finishedAt: orNull(m.finishedAt, (x) => str(x, "finishedAt", fail)),
    owner: {
      pid: nat(owner.pid, "owner.pid", fail),
      host: str(owner.host, "owner.host", fail),
      bootTime: nat(owner.bootTime, "owner.bootTime", fail),
      token: str(owner.token, "owner.token", fail),
    },
    databases: (m.databases as unknown[]).map((d, i) => database(d, `databases[${i}]`, fail)),
    cut: orNull(m.cut, (x) => cutJson(x, fail)),
    error,
  };
}

/** Total bytes of the copies a manifest lists. */
export function manifestBytes(m: BackupManifest): number {
  return m.databases.reduce((sum, d) => sum + (d.bytes ?? 0), 0);
}
