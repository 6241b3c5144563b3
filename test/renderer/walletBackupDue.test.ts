/**
 * The wallet's "a fresh backup is due" (renderer/src/features/wallet/backup/backupDue.ts)
 * against a real node through `inject()`: the wallet's parser reads the node's answer, which
 * is false before any wallet, true once a keystore is saved, false after an app backup holds
 * that keystore, and true again when the keystore changes (a key added).
 */
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { parseBackupDue } from "../../renderer/src/features/wallet/backup/backupDue.ts";
import type { KeystoreFile } from "../../src-node/walletFiles/keystoreFile.ts";
import { testKeystore } from "../support/keystoreFixture.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

let t: TestNode | undefined;
const folder = tempDir("weft-backup-due-");
afterAll(async () => {
  await t?.cleanup();
  rmSync(folder, { recursive: true, force: true });
});

describe("[renderer] the wallet's fresh-backup-due answer", () => {
  it("is due after the wallet is saved or changed, not after a backup holds it", async () => {
    t = await openTestNode();
    const node = t;
    const headers = { host: "127.0.0.1:1848", "x-weft-app-token": node.node.appToken };
    const due = async () => {
      const r = await node.request("GET", "/app/api/backup", { headers });
      expect(r.statusCode, r.body).toBe(200);
      const parsed = parseBackupDue(JSON.parse(r.body));
      if (!parsed.ok) throw new Error(parsed.error);
      return parsed.value;
    };
    const save = async (file: KeystoreFile) => {
      const r = await node.request("PUT", "/app/api/wallet/keystore", { headers, body: file });
      expect(r.statusCode, r.body).toBe(200);
    };
    const post = async (path: string, body: unknown) => {
      const r = await node.request("POST", `/app/api/backup${path}`, { headers, body });
      expect(r.statusCode, r.body).toBeLessThan(300);
    };

    expect(await due()).toBe(false);
    const file = testKeystore();
    await save(file);
    expect(await due()).toBe(true);

    await post("/settings", { directory: folder });
    await post("/start", { includeState: false });
    await node.node.appBackups.settled();
    expect(await due()).toBe(false);

    const first = file.public.keys[0];
    if (first === undefined) throw new Error("the fixture has no key");
    await save({
      ...file,
      public: { ...file.public, keys: [...file.public.keys, { ...first, id: "p-1", index: 1 }] },
    });
    expect(await due()).toBe(true);
  });

  it("names the field when the answer has another shape", () => {
    expect(parseBackupDue({ freshBackupDue: "yes" })).toEqual({
      ok: false,
      error: "freshBackupDue: expected true or false",
    });
    expect(parseBackupDue([])).toMatchObject({ ok: false });
  });
});
