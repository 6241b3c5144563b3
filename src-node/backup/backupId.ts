/**
 * Backup ids: the spec's UNIX timestamp in seconds, made unique within a
 * backup directory by a suffix when two jobs start in the same second
 * (`1732572000`, then `1732572000_1`, `1732572000_2`, …). An id is also the
 * name of its folder, so only a-zA-Z0-9_- (the spec's characters) and at
 * most {@link MAX_ID_LENGTH} of them are accepted: no id can name a path
 * outside the backup directory.
 * @module
 */
import { BackupError, BackupErrorCode } from "./errors.ts";

export const MAX_ID_LENGTH = 64;

const ID_PATTERN = /^[a-zA-Z0-9_-]+$/;

/** Whether `text` is a well-formed backup id (it may still name no backup). */
export function isBackupId(text: string): boolean {
  return text.length > 0 && text.length <= MAX_ID_LENGTH && ID_PATTERN.test(text);
}

/**
 * @throws {BackupError} BACKUP_BAD_ID for an empty id, one longer than 64
 *   characters, or one with a character outside a-zA-Z0-9_-.
 */
export function parseBackupId(text: string): string {
  if (text.length === 0) {
    throw new BackupError(
      { code: BackupErrorCode.BadId, id: text, reason: "empty" },
      "backupId: empty",
    );
  }
  if (text.length > MAX_ID_LENGTH) {
    throw new BackupError(
      { code: BackupErrorCode.BadId, id: text, reason: "too long" },
      `backupId: at most ${MAX_ID_LENGTH} characters, got ${text.length}`,
    );
  }
  if (!ID_PATTERN.test(text)) {
    throw new BackupError(
      { code: BackupErrorCode.BadId, id: text, reason: "bad character" },
      `backupId: only the characters a-zA-Z0-9_- are allowed, got ${JSON.stringify(text)}`,
    );
  }
  return text;
}

/** The `n`-th id to try for a job started at `unixSeconds` (n = 0: the plain timestamp). */
export function backupIdCandidate(unixSeconds: number, n: number): string {
  return n === 0 ? String(unixSeconds) : `${unixSeconds}_${n}`;
}

/** Orders ids by start time, then suffix (newest last). */
export function compareBackupIds(a: string, b: string): number {
  const key = (id: string): [number, number] => {
    const m = /^(\d+)(?:_(\d+))?$/.exec(id);
    return m === null ? [Number.POSITIVE_INFINITY, 0] : [Number(m[1]), Number(m[2] ?? 0)];
  };
  const [sa, na] = key(a);
  const [sb, nb] = key(b);
  return sa !== sb ? sa - sb : na !== nb ? na - nb : a < b ? -1 : a > b ? 1 : 0;
}
