/**
 * Backups hold the private state (docs/private.md "Backups"): the app's
 * backup of a node with an entity copies `private/<entity>.sqlite` (with its
 * replay memory and party chains) and `private/trusted-entities.json`, with
 * or without the contract state, never the entity's key file; a restore into
 * a new data folder brings back the private results, the pins and the
 * replay memory.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { restoreBackup } from "../../src-node/backup/restoreBackup.ts";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import { newEntityKeys } from "../../src-node/p2p/private/entityKeys.ts";
import { privateCommand } from "../support/privateCommand.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

const open: TestNode[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("[backup] private state", () => {
  it("is backed up and restored, with the pins; the key file stays behind", async () => {
    const t = await openTestNode({ p2p: { entity: "alice" } });
    open.push(t);
    const command = privateCommand({ code: "(+ 40 2)", from: "alice", to: ["alice"] });
    await t.node.private.send(0, command);
    const carol = base64UrlEncode(newEntityKeys().publicKey);
    t.node.private.trust.add("carol", carol);
    const folder = tempDir("weft-private-backups-");
    dirs.push(folder);
    t.node.appBackups.setDirectory(folder);
    const id = t.node.appBackups.start({ includeState: false });
    const manifest = await t.node.appBackups.settled();
    expect(manifest?.status, JSON.stringify(manifest?.error)).toBe("backup-done");
    expect(manifest?.databases.map((d) => [d.name, d.file])).toEqual([
      ["blocks", "blocks.sqlite"],
      ["private", "private/alice.sqlite"],
      ["private/trusted-entities.json", "private/trusted-entities.json"],
    ]);
    expect(existsSync(join(folder, id, "entity-key.json"))).toBe(false);

    const target = tempDir("weft-private-restored-");
    dirs.push(target);
    await restoreBackup({ backupFolder: join(folder, id), dataDir: target });
    const restored = await openTestNode({ dir: target, p2p: { entity: "alice" } });
    open.push(restored);
    const result = restored.node.private.poll(0, [command.hash]).get(command.hash);
    expect(JSON.parse(result ?? "null")).toMatchObject({ result: { status: "success", data: 42 } });
    expect(restored.node.private.trust.list().map((p) => [p.name, p.publicKey])).toEqual([
      ["carol", carol],
    ]);
    expect(restored.node.private.partyChains().heads).toEqual(t.node.private.partyChains().heads);
    // A new data folder makes a new key: nodes that pinned the old one pin this one.
    expect(restored.node.private.identity().publicKey).not.toBe(
      t.node.private.identity().publicKey,
    );
  });
});
