/**
 * Block execution without a node: a test-singleton block database with the
 * network's real genesis (system contracts, funded test accounts), a
 * state.sqlite, a ChainExecutor and a CommandService, all in a temporary
 * directory; blocks are mined through a MiningService (any nonce is valid on
 * test-singleton), so they pass the same execution as on a node.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { cutExtension, extendableChains } from "../../src-node/chain/cutExtension.ts";
import type { MinerInfo } from "../../src-node/chain/minerData.ts";
import type { NetworkVersion } from "../../src-node/chain/networkVersion.ts";
import { newBlockHeader } from "../../src-node/chain/newBlockHeader.ts";
import { versionByName } from "../../src-node/chain/versions.ts";
import type { Capability, Command, CommandPayload } from "../../src-node/command/commandTypes.ts";
import { JsonNumber } from "../../src-node/command/exactJson.ts";
import { ChainExecutor, type ReadyCommand } from "../../src-node/exec/chainExecutor.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { devAccount } from "../../src-node/genesis/devAccounts.ts";
import { genesisPayloadOf } from "../../src-node/genesis/genesisPayloads.ts";
import { runGenesis } from "../../src-node/genesis/runGenesis.ts";
import { CommandService } from "../../src-node/mempool/commandService.ts";
import { MiningService } from "../../src-node/mining/miningService.ts";
import { type Block, BlockDb } from "../../src-node/store/blockDb.ts";
import { StateDb } from "../../src-node/store/stateDb.ts";
import { tempDir } from "./testNode.ts";

const { buildCommand, signCommand } = nodeCommands;

export const MINER: MinerInfo = {
  account: `k:${devAccount(9).publicKey}`,
  predicate: "keys-all",
  publicKeys: [devAccount(9).publicKey],
};

export type ExecChain = {
  readonly version: NetworkVersion;
  readonly dir: string;
  readonly blocks: BlockDb;
  readonly state: StateDb;
  readonly executor: ChainExecutor;
  readonly commands: CommandService;
  readonly mining: MiningService;
  /**
   * Mines one block on `chainId` (mempool commands included), after blocks on
   * other chains when braiding needs them first; returns its header.
   */
  mine(chainId: number, miner?: MinerInfo): Promise<BlockHeader>;
  /**
   * Builds (does not insert) the next block on `chainId`, or on the first
   * chain that can be extended, with `candidates` offered to its payload.
   */
  nextBlock(chainId?: number, candidates?: readonly ReadyCommand[], miner?: MinerInfo): Block;
  /** Closes everything (`keepFiles`: leave the directory for a reopen). */
  close(keepFiles?: boolean): void;
};

export function openExecChain(options: { dir?: string; network?: string } = {}): ExecChain {
  const version = versionByName(options.network ?? "test-singleton");
  const dir = options.dir ?? tempDir("weft-exec-");
  const blocks = BlockDb.open({
    path: join(dir, "blocks.sqlite"),
    version,
    genesisPayload: (c) => genesisPayloadOf(version, c),
  });
  const state = StateDb.open({ path: join(dir, "state.sqlite") });
  const executor = ChainExecutor.open({
    version,
    blocks,
    state,
    genesis: (chainId, storage) => {
      runGenesis(version, chainId, storage);
    },
  });
  const commands = new CommandService({ executor, blocks, listenTimeoutMs: 2000 });
  const mining = new MiningService({ chain: blocks, payloadProvider: commands.payloadFor });
  return {
    version,
    dir,
    blocks,
    state,
    executor,
    commands,
    mining,
    async mine(chainId, miner = MINER) {
      // Braiding may first need blocks on other chains; the service picks them when chainId waits.
      for (let i = 0; i < 50; i++) {
        const work = await mining.work(miner, chainId);
        const solved = mining.submit(work.bytes.subarray(36)).header;
        if (solved.chainId === chainId) return solved;
      }
      throw new Error(`chain ${chainId} could not be mined`);
    },
    nextBlock(chainId, candidates = [], miner = MINER) {
      const parentOf = (h: BlockHeader) => blocks.header(h.parent);
      const chain = chainId ?? extendableChains(blocks.cut(), version, parentOf)[0];
      if (chain === undefined) throw new Error("no chain can be extended");
      const ext = cutExtension(blocks.cut(), version, chain, parentOf);
      if (ext.status !== "ready") throw new Error(`chain ${chain} cannot be extended now`);
      const latest = Math.max(
        ext.parent.creationTime,
        ...ext.adjacentParents.map((a) => a.creationTime),
      );
      const creationTime = Math.max(Date.now() * 1000, latest + 1);
      const built = executor.buildPayload(
        ext.parent,
        miner,
        candidates,
        Math.floor(creationTime / 1_000_000),
      );
      const header = newBlockHeader({
        version,
        parent: ext.parent,
        adjacentParents: ext.adjacentParents,
        creationTime,
        payloadHash: built.payload.payloadHash,
      });
      return { header, payload: built.payload };
    },
    close(keepFiles = false) {
      commands.close();
      mining.close();
      executor.close();
      state.close();
      blocks.close();
      if (!keepFiles && options.dir === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A test account's key pair and names (sender00 … sender09). */
export function devKey(i: number) {
  return devAccount(i);
}

export type CommandSpec = {
  readonly code: string;
  readonly data?: Record<string, unknown>;
  readonly chainId?: number;
  readonly sender?: string;
  /** Signers: test account index and capabilities (default: sender00 unrestricted). */
  readonly signers?: readonly { readonly key: number; readonly caps?: readonly Capability[] }[];
  readonly gasLimit?: number;
  readonly gasPrice?: string;
  readonly ttl?: number;
  readonly creationTime?: number;
  readonly network?: string | null;
  readonly nonce?: string;
};

let nonces = 0;

/** A signed command of test accounts. */
export function signedCommand(spec: CommandSpec): Command {
  const signers = (spec.signers ?? [{ key: 0 }]).map((s) => ({
    key: devKey(s.key),
    caps: s.caps ?? [],
  }));
  const payload: CommandPayload = {
    payload: { exec: { code: spec.code, data: (spec.data ?? {}) as never } },
    meta: {
      chainId: String(spec.chainId ?? 0),
      sender: spec.sender ?? "sender00",
      gasLimit: spec.gasLimit ?? 2500,
      gasPrice: spec.gasPrice ?? "0.00000001",
      ttl: spec.ttl ?? 3600,
      creationTime: spec.creationTime ?? Math.floor(Date.now() / 1000) - 60,
    },
    signers: signers.map((s) => ({ pubKey: s.key.publicKey, clist: s.caps })),
    networkId: spec.network === undefined ? "test-singleton" : spec.network,
    nonce: spec.nonce ?? `test-${process.pid}-${nonces++}`,
  };
  const unsigned = buildCommand(payload);
  return signCommand(
    unsigned,
    payload.signers,
    signers.map((s) => ({ publicKey: s.key.publicKey, secretKey: s.key.secretKey })),
  );
}

/** `coin.TRANSFER` and `coin.GAS` for a transfer signed by the sender. */
export function transferCaps(from: string, to: string, amount: string): Capability[] {
  return [
    { name: "coin.TRANSFER", args: [from, to, JsonNumber.of(amount) as JsonNumber] },
    { name: "coin.GAS", args: [] },
  ];
}
