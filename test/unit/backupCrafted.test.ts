/**
 * A crafted backup names nothing outside its folder (docs/backup.md "What a
 * crafted backup can and cannot do"; backup/backupContents.ts): restore
 * refuses a manifest whose id is a path, files a backup never holds
 * (`entity-key.json`, `peers.json`, `private/entity-key.json`, `../evil`), a
 * symbolic link for a file, a folder inside, the manifest or the backup
 * folder itself, and a pipe; each refusal touches nothing on disk. The app's
 * backups copy only the wallet files a restore takes back, and it takes them back.
 */

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkForApp } from "../../src-node/backup/appRestore.ts";
import { type BackupManifest, manifestText } from "../../src-node/backup/backupManifest.ts";
import { restoreBackup } from "../../src-node/backup/restoreBackup.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { openTestNode, tempDir } from "../support/testNode.ts";

let dir: string;
let backupDir: string;
let data: string;

beforeEach(() => {
  dir = tempDir("weft-crafted-");
  backupDir = join(dir, "backups");
  data = join(dir, "data");
  mkdirSync(backupDir);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A finished backup of a fresh node (the blocks only). */
async function makeBackup(): Promise<string> {
  const t = await openTestNode({ dir: join(dir, "live"), backup: { directory: backupDir } });
  try {
    const service = t.node.backup;
    if (service === undefined) throw new Error("no backup service");
    const id = service.start({ backupPact: false });
    await service.settled();
    expect(service.manifest(id).status).toBe("backup-done");
    return join(backupDir, id);
  } finally {
    await t.cleanup();
  }
}

function readManifestOf(folder: string): BackupManifest {
  return JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8")) as BackupManifest;
}

function rewrite(folder: string, change: (m: BackupManifest) => BackupManifest): void {
  writeFileSync(join(folder, "manifest.json"), manifestText(change(readManifestOf(folder))));
}

/** Puts `file` into the backup with `content` and lists it in the manifest, checksum right. */
function addFile(
  folder: string,
  entry: { name: string; file: string; kind?: "file" },
  content: string,
): void {
  const path = join(folder, entry.file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  rewrite(folder, (m) => ({
    ...m,
    databases: [
      ...m.databases,
      {
        ...entry,
        pages: { done: 1, total: 1 },
        bytes: Buffer.byteLength(content),
        sha256: createHash("sha256").update(content).digest("hex"),
        heads: null,
      },
    ],
  }));
}

/** Every path under `root` with its kind and, for files, its SHA-256. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (p: string, rel: string): void => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) out[rel] = "link";
    else if (st.isDirectory()) {
      out[rel] = "dir";
      for (const n of readdirSync(p)) walk(join(p, n), `${rel}/${n}`);
    } else if (st.isFile()) {
      out[rel] = createHash("sha256").update(readFileSync(p)).digest("hex");
    } else out[rel] = "other";
  };
  walk(root, ".");
  return out;
}

async function refusal(folder: string): Promise<{ code: string; message: string }> {
  try {
    await restoreBackup({ backupFolder: folder, dataDir: data });
  } catch (e) {
    if (isNodeError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("expected the restore to be refused");
}

/** Restores `folder`, expects `code`, and checks that nothing on disk changed. */
async function refusedUntouched(folder: string, code: string, message: RegExp): Promise<void> {
  const before = tree(dir);
  const r = await refusal(folder);
  expect(r.code, r.message).toBe(code);
  expect(r.message).toMatch(message);
  expect(tree(dir)).toEqual(before);
}

describe("[backup] a crafted backup", () => {
  it("whose id is a path is refused; the folder it points at stays", async () => {
    const folder = await makeBackup();
    // Before the check, staging was `<network>/.restore-<id>-<pid>`, created and then removed:
    // this id pointed it at `dir/outside/keep-<pid>`.
    const victim = join(dir, "outside", `keep-${process.pid}`);
    mkdirSync(victim, { recursive: true });
    writeFileSync(join(victim, "precious.txt"), "mine");
    for (const id of ["/../../../outside/keep", "../../x", "/tmp/x", "", "a".repeat(65), "a.b"]) {
      rewrite(folder, (m) => ({ ...m, id }));
      await refusedUntouched(folder, "BACKUP_BAD_MANIFEST", /id: expected 1 to 64 of/);
    }
    expect(readFileSync(join(victim, "precious.txt"), "utf8")).toBe("mine");
  });

  it("naming a file a backup never holds is refused, and nothing is written", async () => {
    const folder = await makeBackup();
    const original = readManifestOf(folder);
    const entries: { name: string; file: string; kind?: "file" }[] = [
      { name: "entity-key.json", file: "entity-key.json", kind: "file" },
      { name: "peers.json", file: "peers.json", kind: "file" },
      { name: "private/entity-key.json", file: "private/entity-key.json", kind: "file" },
      // A file the list has, posing as a database, and the reverse.
      { name: "private", file: "private/entity-key.json" },
      { name: "state", file: "wallet/keystore.json" },
      { name: "blocks", file: "peers.json", kind: "file" },
      { name: "wallet/keystore.json", file: "wallet/pending.json", kind: "file" },
      { name: "index", file: "index.sqlite" },
      { name: "wallet/other.json", file: "wallet/other.json", kind: "file" },
      { name: "node.lock", file: "node.lock", kind: "file" },
    ];
    for (const entry of entries) {
      writeFileSync(join(folder, "manifest.json"), manifestText(original));
      addFile(folder, entry, '{"crafted": true}');
      await refusedUntouched(
        folder,
        "BACKUP_BAD_MANIFEST",
        /databases\[1\]: .* is not a file a backup holds/,
      );
      rmSync(join(folder, entry.file));
    }
    // A path that climbs out never even parses.
    writeFileSync(join(folder, "manifest.json"), manifestText(original));
    rewrite(folder, (m) => ({
      ...m,
      databases: [
        ...m.databases,
        { ...(m.databases[0] as BackupManifest["databases"][0]), file: "../evil" },
      ],
    }));
    await refusedUntouched(folder, "BACKUP_BAD_MANIFEST", /expected a plain file name/);
    // The same file twice.
    writeFileSync(join(folder, "manifest.json"), manifestText(original));
    rewrite(folder, (m) => ({ ...m, databases: [...m.databases, ...m.databases] }));
    await refusedUntouched(folder, "BACKUP_BAD_MANIFEST", /listed twice/);
  });

  it("with a symbolic link for a file, a folder in it, its manifest or itself is refused", async () => {
    const folder = await makeBackup();
    const elsewhere = join(dir, "elsewhere");
    mkdirSync(elsewhere);
    const blocks = join(folder, "blocks.sqlite");

    // The file's content is right (its checksum matches), but reached through a link.
    renameSync(blocks, join(elsewhere, "blocks.sqlite"));
    symlinkSync(join(elsewhere, "blocks.sqlite"), blocks);
    await refusedUntouched(folder, "BACKUP_UNSAFE_FILE", /blocks\.sqlite: a symbolic link/);
    rmSync(blocks);
    renameSync(join(elsewhere, "blocks.sqlite"), blocks);

    // A folder inside the backup that is a link to one outside.
    mkdirSync(join(elsewhere, "wallet"));
    addFile(
      folder,
      { name: "wallet/keystore.json", file: "wallet/keystore.json", kind: "file" },
      "{}",
    );
    renameSync(join(folder, "wallet", "keystore.json"), join(elsewhere, "wallet", "keystore.json"));
    rmSync(join(folder, "wallet"), { recursive: true });
    symlinkSync(join(elsewhere, "wallet"), join(folder, "wallet"));
    await refusedUntouched(folder, "BACKUP_UNSAFE_FILE", /wallet: a symbolic link/);
    rmSync(join(folder, "wallet"));
    cpSync(join(elsewhere, "wallet"), join(folder, "wallet"), { recursive: true });

    // The manifest is a link.
    renameSync(join(folder, "manifest.json"), join(elsewhere, "manifest.json"));
    symlinkSync(join(elsewhere, "manifest.json"), join(folder, "manifest.json"));
    await refusedUntouched(folder, "BACKUP_UNSAFE_FILE", /manifest\.json: a symbolic link/);
    rmSync(join(folder, "manifest.json"));
    renameSync(join(elsewhere, "manifest.json"), join(folder, "manifest.json"));

    // The backup folder itself is a link.
    const link = join(dir, "link-to-backup");
    symlinkSync(folder, link);
    await refusedUntouched(link, "BACKUP_UNSAFE_FILE", /link-to-backup: a symbolic link/);

    // The app's check says why, as a 422 code.
    await expect(checkForApp(link, "test-singleton")).rejects.toMatchObject({
      code: "BACKUP_NOT_RESTORABLE",
      message: expect.stringMatching(/\(BACKUP_UNSAFE_FILE\)$/),
    });

    // Undone, the same folder restores (with its wallet file).
    const r = await restoreBackup({ backupFolder: folder, dataDir: data });
    expect(r.files).toEqual(["blocks.sqlite", "wallet/keystore.json"]);
    expect(readFileSync(join(r.networkDir, "wallet", "keystore.json"), "utf8")).toBe("{}");
    expect(readdirSync(r.networkDir).filter((n) => n.startsWith(".restore-"))).toEqual([]);
  });

  it("with a pipe for a file is refused without waiting on it", async () => {
    const folder = await makeBackup();
    addFile(
      folder,
      { name: "wallet/pending.json", file: "wallet/pending.json", kind: "file" },
      "{}",
    );
    rmSync(join(folder, "wallet", "pending.json"));
    execFileSync("mkfifo", [join(folder, "wallet", "pending.json")]);
    await refusedUntouched(folder, "BACKUP_UNSAFE_FILE", /pending\.json: not a plain file/);
  });
});

describe("[backup] the app's backups", () => {
  it("copy only the wallet files a restore takes back, and it takes them back", async () => {
    const t = await openTestNode({ dir: join(dir, "app") });
    try {
      const wallet = join(t.dir, "test-singleton", "wallet");
      mkdirSync(wallet, { recursive: true });
      writeFileSync(join(wallet, "keystore.json"), "{}");
      writeFileSync(join(wallet, "keystore-replaced-2026-12-02T04-58-10-123Z-2.json"), "{}");
      writeFileSync(join(wallet, "notes.json"), "{}");
      t.node.appBackups.setDirectory(backupDir);
      t.node.appBackups.start({ includeState: false });
      const manifest = await t.node.appBackups.settled();
      expect(manifest?.databases.map((d) => d.file)).toEqual([
        "blocks.sqlite",
        "wallet/keystore-replaced-2026-12-02T04-58-10-123Z-2.json",
        "wallet/keystore.json",
      ]);
      // …and a restore takes back what they copied.
      const id = manifest?.id ?? "";
      const r = await restoreBackup({ backupFolder: join(backupDir, id), dataDir: data });
      expect(r.files).toEqual(manifest?.databases.map((d) => d.file));
    } finally {
      await t.cleanup();
    }
  });
});
