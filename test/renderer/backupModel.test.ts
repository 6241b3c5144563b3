/**
 * The backup page's plain logic (renderer/src/features/backup/model.ts) and its wire parsers
 * (api.ts) on a real overview and job as the node sends them: status words, progress share,
 * contents in words, sizes; a reply of the wrong shape is refused naming the field.
 */
import { describe, expect, it } from "vitest";
import { parseJob, parseOverview } from "../../renderer/src/features/backup/backupWire.ts";
import {
  contentsText,
  formatBytes,
  progressShare,
  statusText,
  timeLeftText,
} from "../../renderer/src/features/backup/model.ts";

describe("[renderer] backup model", () => {
  it("says a status in the page's words", () => {
    expect(statusText("backup-done")).toBe("verified");
    expect(statusText("backup-in-progress")).toBe("in progress");
    expect(statusText("backup-failed")).toBe("failed");
  });

  it("computes the share of pages copied over all databases", () => {
    expect(progressShare([])).toBe(0);
    expect(
      progressShare([{ pages: { done: 10, total: 10 } }, { pages: { done: 5, total: 30 } }]),
    ).toBe(0.375);
  });

  it("names what a backup holds and how big it is", () => {
    expect(contentsText(["state", "blocks", "wallet/keystore.json", "wallet/pending.json"])).toBe(
      "contract state, blocks, wallet (2 files)",
    );
    expect(formatBytes(512)).toBe("512 bytes");
    expect(formatBytes(3 * 1024 * 1024)).toBe("3.0 MiB");
  });

  it('says the time left in words, never "about under a second"', () => {
    expect(timeLeftText(0.4)).toBe("almost done");
    expect(timeLeftText(12)).toBe("about 12 s left");
    expect(timeLeftText(600)).toBe("about 10 min left");
  });

  it("parses the node's overview and job, and refuses a wrong shape", () => {
    const overview = {
      directory: "/tmp/backups",
      defaultDirectory: "/tmp/backups",
      chosen: false,
      includeState: true,
      schedule: { every: "daily", hour: 3, weekday: 0, keep: 7 },
      nextAutomatic: "2026-11-27T03:00:00.000Z",
      runningId: null,
      estimate: {
        parts: { blocks: 100 },
        bytes: 100,
        seconds: 1,
        bytesWithoutState: 100,
        secondsWithoutState: 1,
      },
      freshBackupDue: true,
      lastRestore: null,
      restartable: true,
    };
    expect(parseOverview(overview)).toMatchObject({ ok: true, value: { freshBackupDue: true } });
    const bad = parseOverview({ ...overview, schedule: { ...overview.schedule, every: "hourly" } });
    expect(bad).toMatchObject({ ok: false, error: /schedule\.every/ });
    const job = parseJob({
      id: "1764150000",
      status: "backup-in-progress",
      startedAt: "2026-11-26T10:00:00.000Z",
      finishedAt: null,
      databases: [{ name: "blocks", pages: { done: 1, total: 4 }, bytes: null }],
      bytes: 0,
      cutHeight: null,
      secondsLeft: 3,
      error: null,
    });
    expect(job).toMatchObject({ ok: true, value: { secondsLeft: 3 } });
    expect(parseJob({ id: "x", status: "done" })).toMatchObject({ ok: false, error: /status/ });
  });
});
