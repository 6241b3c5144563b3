/**
 * blocks.sqlite migration 5 (store/migrations/blocks/0005-signer-addresses.ts): a data folder
 * written by a Weft before issue 31 may hold a block whose command has a signer naming another
 * key in `addr`. Crafted here: a real chain with a command whose signer's `addr` is its own key,
 * mined, then the stored transaction rewritten to name another key and the file set back to
 * version 4, as an older Weft would have left it. Opening it fails with STORE_INVALID_BLOCK
 * naming the chain, height and block hash and saying to restore a backup or remove the folder;
 * the file stays at version 4 and keeps failing (never silently opened); the node refuses to
 * start on it. A clean version-4 file (an `addr` equal to its key, `addr` in code text) opens
 * and is at version 5.
 */
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { versionByName } from "../../src-node/chain/versions.ts";
import type { CommandPayload } from "../../src-node/command/commandTypes.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { genesisPayloadOf } from "../../src-node/genesis/genesisPayloads.ts";
import { createNode } from "../../src-node/node.ts";
import { BlockDb } from "../../src-node/store/blockDb.ts";
import { sql } from "../../src-node/store/sql.ts";
import { SqlDatabase } from "../../src-node/store/sqlDatabase.ts";
import { devKey, openExecChain } from "../support/execChain.ts";
import { tempDir } from "../support/testNode.ts";

const owner = devKey(0);
const other = devKey(1);

type Mined = { dir: string; chainId: number; height: number; blockHash: string };

/** A chain whose block holds a command with `addr` equal to its signer's key (valid today). */
async function mineAddrCommand(): Promise<Mined> {
  const dir = tempDir("weft-addr-");
  const x = openExecChain({ dir });
  try {
    const payload: CommandPayload = {
      payload: { exec: { code: '(+ 1 2) ; "addr" in the code is no signer', data: null } },
      meta: {
        chainId: "0",
        sender: "sender00",
        gasLimit: 1000,
        gasPrice: "0.00000001",
        ttl: 3600,
        creationTime: Math.floor(Date.now() / 1000) - 60,
      },
      signers: [
        { pubKey: owner.publicKey, addr: owner.publicKey, clist: [{ name: "coin.GAS", args: [] }] },
      ],
      networkId: "test-singleton",
      nonce: "addr equal to its key",
    };
    const command = nodeCommands.signCommand(nodeCommands.buildCommand(payload), payload.signers, [
      owner,
    ]);
    x.commands.send(0, [command]);
    await x.mine(0);
    const result = JSON.parse(x.commands.poll(0, [command.hash], 0)) as Record<
      string,
      { metaData: { blockHash: string; blockHeight: number } }
    >;
    const meta = result[command.hash]?.metaData;
    if (meta === undefined) throw new Error("the command was not mined");
    return { dir, chainId: 0, height: meta.blockHeight, blockHash: meta.blockHash };
  } finally {
    x.close(true);
  }
}

/** The file as a Weft before issue 31 left it: version 4, optionally `addr` naming another key. */
function asOlderWeft(path: string, impersonate: boolean): void {
  const db = SqlDatabase.open(path);
  try {
    if (impersonate) {
      const rows = db.all(
        sql`SELECT id, transaction_bytes FROM payload_transactions
            WHERE instr(transaction_bytes, X'61646472') > 0`,
        (r) => r as { id: number; transaction_bytes: Buffer },
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        const tx = JSON.parse(row.transaction_bytes.toString("utf8")) as { cmd: string };
        const cmd = JSON.parse(tx.cmd) as { signers: { addr?: string }[] };
        for (const s of cmd.signers) if (s.addr !== undefined) s.addr = other.publicKey;
        const text = JSON.stringify({ ...tx, cmd: JSON.stringify(cmd) });
        db.run(
          sql`UPDATE payload_transactions SET transaction_bytes = ${Buffer.from(text)} WHERE id = ${row.id}`,
        );
      }
    }
    db.setUserVersion(4);
  } finally {
    db.close();
  }
}

function userVersion(path: string): number {
  const db = SqlDatabase.open(path);
  try {
    return db.userVersion();
  } finally {
    db.close();
  }
}

function openBlocks(path: string): BlockDb {
  const version = versionByName("test-singleton");
  return BlockDb.open({ path, version, genesisPayload: (c) => genesisPayloadOf(version, c) });
}

function errorOf(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe("[store] a stored block whose signer's addr is another key (migration 5)", () => {
  let mined: Mined;
  beforeAll(async () => {
    mined = await mineAddrCommand();
  });
  afterAll(() => rmSync(mined.dir, { recursive: true, force: true }));

  it("a clean version-4 file opens and is at version 5", () => {
    const dir = tempDir("weft-addr-clean-");
    try {
      const path = join(dir, "blocks.sqlite");
      copyFileSync(join(mined.dir, "blocks.sqlite"), path);
      asOlderWeft(path, false);
      openBlocks(path).close();
      expect(userVersion(path)).toBe(5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses to open the file, naming the block and what to do, every time", () => {
    const dir = tempDir("weft-addr-bad-");
    try {
      const path = join(dir, "blocks.sqlite");
      copyFileSync(join(mined.dir, "blocks.sqlite"), path);
      asOlderWeft(path, true);
      for (let attempt = 0; attempt < 2; attempt++) {
        const e = errorOf(() => openBlocks(path));
        expect(isNodeError(e, "STORE_INVALID_BLOCK"), String(e)).toBe(true);
        if (!isNodeError(e)) return;
        expect(e.type).toMatchObject({
          chainId: mined.chainId,
          height: mined.height,
          hash: mined.blockHash,
        });
        expect(e.message).toContain(`block ${mined.blockHash} (chain 0, height ${mined.height})`);
        expect(e.message).toContain(`addr ${other.publicKey}, pubKey ${owner.publicKey}`);
        expect(e.message).toContain("weft restore");
        expect(e.message).toContain("remove the data folder");
        // Rolled back: still version 4, so the check runs again at the next start.
        expect(userVersion(path)).toBe(4);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the node does not start on such a data folder", async () => {
    const dataDir = tempDir("weft-addr-node-");
    try {
      mkdirSync(join(dataDir, "test-singleton"));
      const path = join(dataDir, "test-singleton", "blocks.sqlite");
      copyFileSync(join(mined.dir, "blocks.sqlite"), path);
      asOlderWeft(path, true);
      const started = createNode({
        network: "test-singleton",
        dataDir,
        port: 0,
        listen: false,
        executionWorkers: 0,
      });
      await expect(started).rejects.toMatchObject({ code: "STORE_INVALID_BLOCK" });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
