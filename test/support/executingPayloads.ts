/**
 * Executed payloads for test blocks (ChainBuilder's PayloadSource): a
 * shadow block database and state in memory, on the same genesis as the
 * node the blocks are for, execute every block the builder makes, so each
 * new block's payload (coinbase to `builder-<label>`, and `n` small signed
 * commands of sender00) is what a node computes when it executes the block.
 * Blocks can then be inserted into the node in any order a block database
 * takes them.
 */
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import type { MinerInfo } from "../../src-node/chain/minerData.ts";
import type { PayloadWithOutputs } from "../../src-node/chain/payloadWithOutputs.ts";
import type { CommandPayload } from "../../src-node/command/commandTypes.ts";
import { ChainExecutor, type ReadyCommand } from "../../src-node/exec/chainExecutor.ts";
import { contractInputOf } from "../../src-node/exec/contractInput.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { devAccount } from "../../src-node/genesis/devAccounts.ts";
import { runGenesis } from "../../src-node/genesis/runGenesis.ts";
import { BlockDb } from "../../src-node/store/blockDb.ts";
import { StateDb } from "../../src-node/store/stateDb.ts";
import type { PayloadSource } from "./chainBuilder.ts";

const { buildCommand, parseCommand, signCommand } = nodeCommands;

function miner(label: string): MinerInfo {
  return { account: `builder-${label}`, predicate: "keys-all", publicKeys: [] };
}

/** `n` signed commands of sender00 for a block on `parent` (valid at its time). */
function commandsFor(
  version: string,
  parent: BlockHeader,
  label: string,
  n: number,
): ReadyCommand[] {
  const key = devAccount(0);
  const out: ReadyCommand[] = [];
  for (let i = 0; i < n; i++) {
    const payload: CommandPayload = {
      payload: { exec: { code: `(+ ${i} 1)`, data: null } },
      meta: {
        chainId: String(parent.chainId),
        sender: "sender00",
        gasLimit: 500,
        gasPrice: "0.00000001",
        ttl: 172_800,
        creationTime: Math.floor(parent.creationTime / 1_000_000),
      },
      signers: [{ pubKey: key.publicKey, clist: [] }],
      networkId: version,
      nonce: `${label}-${parent.hash}-${i}`,
    };
    const signed = signCommand(buildCommand(payload), payload.signers, [
      { publicKey: key.publicKey, secretKey: key.secretKey },
    ]);
    const command = parseCommand(JSON.parse(JSON.stringify(signed)));
    out.push({ command, input: contractInputOf(command) });
  }
  return out;
}

/**
 * Executed payloads for blocks on the genesis of `db` (a node's or a plain
 * BlockDb). `extra`: more commands for a block (put first), e.g. a transfer
 * a test follows through a fork switch.
 */
export function executingPayloads(
  db: BlockDb,
  extra?: (parent: BlockHeader, label: string) => readonly ReadyCommand[],
): PayloadSource {
  const version = db.version;
  const shadow = BlockDb.open({
    path: ":memory:",
    version,
    genesisPayload: (c) => {
      const g = db.genesis.get(c);
      const p = g === undefined ? undefined : db.payload(g.payloadHash);
      if (p === undefined) throw new Error(`no genesis payload for chain ${c}`);
      return p;
    },
    now: () => Number.MAX_SAFE_INTEGER,
  });
  const state = StateDb.open({ path: ":memory:" });
  const executor = ChainExecutor.open({
    version,
    blocks: shadow,
    state,
    genesis: (chainId, storage) => {
      runGenesis(version, chainId, storage);
    },
    genesisKey: `runGenesis/${version.name}`,
  });
  return {
    payloadFor(parent, label, transactions, creationTime): PayloadWithOutputs {
      const more = extra?.(parent, label) ?? [];
      const built = executor.buildPayload(
        parent,
        miner(label),
        [...more, ...commandsFor(version.name, parent, label, transactions)],
        Math.floor(creationTime / 1_000_000),
      );
      if (built.included.length !== transactions + more.length) {
        throw new Error(`test payload: ${built.dropped[0]?.error.message ?? "commands left out"}`);
      }
      return built.payload;
    },
    accept(block) {
      shadow.insertBlock(block);
    },
  };
}
