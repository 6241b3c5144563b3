/**
 * The backup page's parsers (renderer/src/features/backup/backupWire.ts) against a real node's
 * replies through `inject()`: the overview, a finished job, the list and a check read
 * without a decode failure, so the page and the node agree on the wire.
 */
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import {
  parseJob,
  parseList,
  parseOverview,
  parseSummary,
} from "../../renderer/src/features/backup/backupWire.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

let t: TestNode | undefined;
const folder = tempDir("weft-backup-wire-");
afterAll(async () => {
  await t?.cleanup();
  rmSync(folder, { recursive: true, force: true });
});

describe("[renderer] backup page wire contract", () => {
  it("reads the node's overview, job, list and check", async () => {
    t = await openTestNode();
    const node = t;
    const headers = { host: "127.0.0.1:1848", "x-weft-app-token": node.node.appToken };
    const call = async (method: "GET" | "POST", path: string, body?: unknown) => {
      const r = await node.request(method, `/app/api/backup${path}`, {
        headers,
        ...(body === undefined ? {} : { body }),
      });
      expect(r.statusCode, r.body).toBeLessThan(300);
      return JSON.parse(r.body) as unknown;
    };
    expect(parseOverview(await call("POST", "/settings", { directory: folder })).ok).toBe(true);
    const { id } = (await call("POST", "/start", { includeState: true })) as { id: string };
    await node.node.appBackups.settled();
    const job = parseJob(await call("GET", `/jobs/${id}`));
    expect(job).toMatchObject({ ok: true, value: { status: "backup-done" } });
    const list = parseList(await call("GET", "/list"));
    expect(list).toMatchObject({ ok: true, value: [{ id, status: "backup-done" }] });
    expect(parseSummary(await call("POST", "/check", { id })).ok).toBe(true);
    expect(parseOverview(await call("GET", "")).ok).toBe(true);
  });
});
