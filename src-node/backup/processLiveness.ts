/**
 * Whether the process that wrote a lock file or owns a backup job is still
 * running. Such records name the process by host, pid, the computer's boot
 * time and a random token:
 * - another host: unknown from here (the caller decides);
 * - a boot time that differs from this boot's: the computer restarted, so
 *   the process is gone (pids are reused after a restart);
 * - this process's pid: alive only while the token is registered here, so a
 *   record left by an earlier process that had the same pid (common in
 *   containers) is recognised as dead;
 * - another pid: alive when a process with that pid exists.
 * @module
 */
import { randomUUID } from "node:crypto";
import { hostname, uptime } from "node:os";

export type ProcessRecord = {
  readonly pid: number;
  readonly host: string;
  /** ms since the UNIX epoch, rounded to seconds (see {@link bootTime}). */
  readonly bootTime: number;
  readonly token: string;
};

/** Boot times of one boot read at different moments differ by rounding; allow this much. */
const BOOT_TIME_SLACK_MS = 10_000;

const liveTokens = new Set<string>();

/** When this computer started, ms since the UNIX epoch (whole seconds). */
export function bootTime(): number {
  return Math.round((Date.now() - uptime() * 1000) / 1000) * 1000;
}

/** A record of this process, alive until {@link releaseRecord}. */
export function newProcessRecord(): ProcessRecord {
  const record = { pid: process.pid, host: hostname(), bootTime: bootTime(), token: randomUUID() };
  liveTokens.add(record.token);
  return record;
}

/** Marks a record of this process as no longer alive. */
export function releaseRecord(record: ProcessRecord): void {
  liveTokens.delete(record.token);
}

/** Whether a process with this pid exists on this computer. */
export function pidExists(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to another user.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether the process of `record` is still running: true or false on this
 * host, undefined for a record of another host.
 */
export function recordAlive(record: ProcessRecord): boolean | undefined {
  if (record.host !== hostname()) return undefined;
  if (Math.abs(record.bootTime - bootTime()) > BOOT_TIME_SLACK_MS) return false;
  if (record.pid === process.pid) return liveTokens.has(record.token);
  return pidExists(record.pid);
}
