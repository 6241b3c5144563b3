/**
 * Runs a chain's genesis transactions against a contract storage, in order,
 * as the node's genesis does: each in its own storage transaction, with the
 * magic `coin.GENESIS` capability, the permissive (`simple`) namespace policy
 * (so the system contracts can be defined at the root), no signers, no gas
 * (rate 0), keyset formats enforced, chain data of the chain's genesis block.
 * Each transaction yields its command (as a payload carries it) and its
 * command result (JSON text, exec/commandResult.ts).
 *
 * The execution area calls this when it initialises a chain's contract
 * state; genesisPayloads.ts runs it on an in-memory storage to build the
 * genesis payloads. Both see the same bytes: the run is deterministic.
 * @module
 */
import { genesisParentHash } from "../chain/genesisParentHash.ts";
import { genesisHeightOf, type NetworkVersion } from "../chain/networkVersion.ts";
import { stringifyJson } from "../command/exactJson.ts";
import { renderPactError } from "../contract/errors.ts";
import type { ChainData, ContractStorage } from "../contract/eval/runtimeContext.ts";
import { type ContractOutcome, runContractCommand } from "../contract/execute.ts";
import { pactValueFromJson, parseJsonExact } from "../contract/values/json.ts";
import { makeObject, type PactValue } from "../contract/values/value.ts";
import { commandResultOf, commandResultText } from "../exec/commandResult.ts";
import { GenesisError, GenesisErrorCode } from "./errors.ts";
import { type GenesisTransaction, genesisTransactions } from "./genesisTransactions.ts";

/** The capability every genesis transaction runs with (reference §4.6). */
export const GENESIS_CAPABILITY = { name: "coin.GENESIS", args: [] } as const;

/** Bounds a broken contract only: genesis runs at a gas rate of 0. */
const GENESIS_GAS_LIMIT = 1_000_000_000;

export type GenesisResult = {
  readonly transaction: GenesisTransaction;
  readonly outcome: ContractOutcome;
  /** The signed-command JSON `{"hash","sigs","cmd"}` a payload carries (no signatures). */
  readonly commandJson: string;
  /** The command result's JSON text (the payload's output). */
  readonly resultJson: string;
};

/** Chain data of a chain's genesis block. */
export function genesisChainData(version: NetworkVersion, chainId: number): ChainData {
  return {
    chainId: String(chainId),
    blockHeight: BigInt(genesisHeightOf(version, chainId)),
    blockTime: BigInt(version.genesisTime),
    prevBlockHash: genesisParentHash(version.code, chainId),
    sender: "",
    gasLimit: 0n,
    gasPrice: { mantissa: 0n, scale: 0 },
  };
}

function failed(version: NetworkVersion, chainId: number, tx: string, message: string): never {
  throw new GenesisError(
    { code: GenesisErrorCode.TxFailed, network: version.name, chainId, tx, message },
    `genesis of ${version.name} chain ${chainId}: transaction ${tx} failed: ${message}`,
  );
}

function messageData(version: NetworkVersion, chainId: number, tx: GenesisTransaction): PactValue {
  if (tx.data === null) return makeObject([]);
  const parsed = parseJsonExact(stringifyJson(tx.data));
  const decoded = parsed === null ? null : pactValueFromJson(parsed);
  if (decoded === null || !decoded.ok)
    return failed(version, chainId, tx.name, `bad message data: ${decoded?.error ?? "not JSON"}`);
  return decoded.value;
}

/**
 * Runs the genesis transactions of `chainId` against `storage` (which should
 * be empty) and returns each one's command and result.
 * @throws {GenesisError} GENESIS_TX_FAILED when a transaction fails;
 *   GENESIS_SOURCE_UNREADABLE, GENESIS_BAD_ALLOCATION.
 * @throws {ChainError} CHAIN_BAD_CHAIN_ID when the network has no such chain.
 */
export function runGenesis(
  version: NetworkVersion,
  chainId: number,
  storage: ContractStorage,
): GenesisResult[] {
  const chainData = genesisChainData(version, chainId);
  return genesisTransactions(version, chainId).map((tx) => {
    const outcome = runContractCommand({
      payload: { kind: "exec", code: tx.code },
      data: messageData(version, chainId, tx),
      signers: [],
      chainData,
      txHash: tx.command.hash,
      gasLimit: GENESIS_GAS_LIMIT,
      gasModel: { kind: "fixed", rate: 0 },
      namespacePolicy: { kind: "simple" },
      storage,
      execFlags: new Set(["EnforceKeyFormats"]),
      grantedCaps: [GENESIS_CAPABILITY],
      file: `genesis/${tx.name}`,
    });
    if (!outcome.result.ok)
      failed(version, chainId, tx.name, renderPactError(outcome.result.error));
    return {
      transaction: tx,
      outcome,
      commandJson: JSON.stringify({ hash: tx.command.hash, sigs: [], cmd: tx.command.cmd }),
      resultJson: commandResultText(commandResultOf(tx.command.hash, outcome)),
    };
  });
}
