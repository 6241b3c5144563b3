/**
 * The environment a block's commands execute in: network, chain, the
 * parent block (execution is on the parent's state; the block's own header
 * may still change when a miner updates its creation time, so chain data
 * comes from the parent: height = parent's + 1, block time = the parent's
 * creation time, previous block hash = the parent's hash, as the reference
 * does), the storage, the namespace policy and the SPV verifier. Nothing
 * here reads a clock: execution is deterministic; only payload building and
 * /local add a wall-clock limit (`timeLimitMs`, exec/timeLimit.ts), whose
 * outcome never enters a block.
 * @module
 */
import type { NetworkVersion } from "../chain/networkVersion.ts";
import type { PublicMeta } from "../command/commandTypes.ts";
import { commandInvariant } from "../command/errors.ts";
import { JsonNumber, jsonNumber, jsonString, RawJson } from "../command/exactJson.ts";
import type { ChainData, NamespacePolicy, SpvSupport } from "../contract/eval/runtimeContext.ts";
import type { ContractStorage } from "../contract/storage/contractStorage.ts";
import { decimalOfText } from "./gasMath.ts";

/** What execution needs of the parent block. */
export type ParentBlock = {
  readonly height: number;
  readonly hash: string;
  /** µs since the UNIX epoch. */
  readonly creationTime: number;
};

export type BlockEnv = {
  readonly version: NetworkVersion;
  readonly chainId: number;
  readonly parent: ParentBlock;
  readonly storage: ContractStorage;
  readonly namespacePolicy: NamespacePolicy;
  readonly spv: SpvSupport | null;
  /** Wall-clock limit of each payload's evaluation (payload building, /local); none when validating. */
  readonly timeLimitMs?: number | undefined;
};

/** Who may define namespaces on chain: `ns.validate` decides, nothing at the root (reference §9.1). */
export const CHAIN_NAMESPACE_POLICY: NamespacePolicy = {
  kind: "smart",
  allowRoot: false,
  validator: "ns.validate",
};

/** Execution flags of on-chain code (keyset keys must be ed25519 public keys in hex). */
export const CHAIN_EXEC_FLAGS: ReadonlySet<string> = new Set(["EnforceKeyFormats"]);

/** Chain data of a command (`chain-data`), from the parent block and the command's metadata. */
export function chainDataOf(env: BlockEnv, meta: PublicMeta | null): ChainData {
  return {
    chainId: String(env.chainId),
    blockHeight: BigInt(env.parent.height + 1),
    blockTime: BigInt(env.parent.creationTime),
    prevBlockHash: env.parent.hash,
    sender: meta?.sender ?? "",
    gasLimit: BigInt(meta?.gasLimit ?? 0),
    gasPrice: meta === null ? { mantissa: 0n, scale: 0 } : decimalOfText(meta.gasPrice),
  };
}

/** The public data `/local` answers as `metaData`: `{publicMeta, blockTime, prevBlockHash, blockHeight}`. */
export function publicDataJson(env: BlockEnv, meta: PublicMeta): RawJson {
  // gasPrice is canonical decimal text: written as a JSON number with exactly that text.
  const gasPrice = JsonNumber.of(meta.gasPrice);
  if (gasPrice === undefined) {
    throw commandInvariant("meta.gasPrice", `not JSON number text: ${meta.gasPrice}`);
  }
  // Concatenated in the reference's key order (every /local answer carries it);
  // numbers go through jsonNumber, which refuses a non-finite one.
  const publicMeta = `{"chainId":${jsonString(meta.chainId)},"sender":${jsonString(meta.sender)},"gasLimit":${jsonNumber(meta.gasLimit)},"gasPrice":${gasPrice.text},"ttl":${jsonNumber(meta.ttl)},"creationTime":${jsonNumber(meta.creationTime)}}`;
  const p = env.parent;
  return new RawJson(
    `{"publicMeta":${publicMeta},"blockTime":${jsonNumber(p.creationTime)},"prevBlockHash":${jsonString(p.hash)},"blockHeight":${jsonNumber(p.height + 1)}}`,
  );
}
