/**
 * The node's files are the user's alone (issue 15 finding 7; docs/node.md
 * "Files"): with the usual umask 022, the data folder, the network folder,
 * the databases with their -wal and -shm files, the lock, the app token, and
 * backups (folders, copies, manifests) are 0700/0600; a data folder made
 * loose by an older release is tightened when the node opens it.
 */
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createNode } from "../../src-node/node.ts";
import { tempDir } from "../support/testNode.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dir(prefix: string): string {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
}

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Every folder and file under `root` (root included) with its mode. */
function modes(root: string): Map<string, number> {
  const out = new Map<string, number>([[root, modeOf(root)]]);
  for (const name of readdirSync(root, { recursive: true }) as string[]) {
    const p = join(root, name);
    out.set(p, modeOf(p));
  }
  return out;
}

function loose(all: Map<string, number>): string[] {
  return [...all]
    .filter(([p, m]) => m !== (statSync(p).isDirectory() ? 0o700 : 0o600))
    .map(([p, m]) => `${p} ${m.toString(8)}`);
}

describe.skipIf(process.platform === "win32")("[node] private files", () => {
  it("makes the data folder, databases, lock, token and backups 0700/0600 under umask 022", async () => {
    const previous = process.umask(0o022);
    try {
      const parent = dir("weft-private-");
      const data = join(parent, "data");
      const backups = join(parent, "backups");
      // The backup folder is the user's choice; the node only makes what goes in it.
      mkdirSync(backups, { mode: 0o700 });
      const node = await createNode({
        network: "test-singleton",
        dataDir: data,
        port: 0,
        listen: false,
        backup: { apiEnabled: true, directory: backups },
      });
      try {
        const id = node.backup?.start({ backupPact: true });
        await node.backup?.settled();
        expect(node.backup?.status(id ?? "")).toBe("backup-done");
        const names = readdirSync(join(data, "test-singleton"));
        expect(names).toEqual(
          expect.arrayContaining([
            "blocks.sqlite",
            "blocks.sqlite-wal",
            "state.sqlite",
            "node.lock",
            "app-token",
          ]),
        );
        expect(loose(modes(data))).toEqual([]);
        const backupModes = modes(backups);
        backupModes.delete(backups);
        expect(backupModes.size).toBeGreaterThan(2);
        expect(loose(backupModes)).toEqual([]);
      } finally {
        await node.close();
      }
    } finally {
      process.umask(previous);
    }
  });

  it("tightens a data folder an older release left readable by others", async () => {
    const data = join(dir("weft-private-old-"), "data");
    const first = await createNode({ network: "test-singleton", dataDir: data, listen: false });
    await first.close();
    chmodSync(data, 0o755);
    chmodSync(join(data, "test-singleton"), 0o755);
    for (const name of readdirSync(join(data, "test-singleton")))
      chmodSync(join(data, "test-singleton", name), 0o644);
    const again = await createNode({ network: "test-singleton", dataDir: data, listen: false });
    try {
      expect(loose(modes(data))).toEqual([]);
    } finally {
      await again.close();
    }
  });
});
