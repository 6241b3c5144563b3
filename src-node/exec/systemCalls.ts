/**
 * The node's calls into the coin contract (reference pact-language.md §4.6,
 * §8.2; chainweb-api.md §6.4), each run as system code: a fixed program
 * whose arguments come from message data (never spliced into code), with a
 * "magic" capability granted before it runs and no gas charged.
 * - coinbase: `(coin.coinbase account miner-keyset reward)` with
 *   `coin.COINBASE`, no signers;
 * - buy gas: `(coin.buy-gas sender total)` with `coin.GAS` and the
 *   command's signers; a signer scoped to `coin.GAS` also gets
 *   `(coin.DEBIT sender)`, so the sender's guard can be enforced; a
 *   signer's `GAS_PAYER` capability is acquired around it (gasPayer.ts);
 * - redeem gas: `(coin.redeem-gas miner miner-keyset sender total)` with
 *   `fee` in the data and `coin.GAS`.
 * @module
 */
import type { MinerInfo } from "../chain/minerData.ts";
import type { PublicMeta } from "../command/commandTypes.ts";
import type { SigCapability, Signer } from "../contract/eval/runtimeContext.ts";
import { type ContractOutcome, type GasPayer, runContractCommand } from "../contract/execute.ts";
import type { Decimal } from "../contract/values/decimal.ts";
import { keysetGuard } from "../contract/values/json.ts";
import { makeObject, type PactValue, pDecimal, pString } from "../contract/values/value.ts";
import { type BlockEnv, CHAIN_EXEC_FLAGS, chainDataOf } from "./blockEnv.ts";

/** Gas limit of system calls (they run at a rate of 0; this only bounds a broken contract). */
const SYSTEM_GAS_LIMIT = 1_000_000_000;

export const COINBASE_CODE =
  '(coin.coinbase (read-msg "account") (read-keyset "miner-keyset") (read-decimal "reward"))';
export const BUY_GAS_CODE = '(coin.buy-gas (read-msg "sender") (read-decimal "total"))';
export const REDEEM_GAS_CODE =
  '(coin.redeem-gas (read-msg "miner") (read-keyset "miner-keyset") (read-msg "sender") (read-decimal "total"))';

const GAS_CAP: SigCapability = { name: "coin.GAS", args: [] };
const COINBASE_CAP: SigCapability = { name: "coin.COINBASE", args: [] };

/** The miner's keyset as a guard value. */
export function minerKeyset(miner: MinerInfo): PactValue {
  return { kind: "guard", guard: keysetGuard(miner.publicKeys, miner.predicate) };
}

function runSystem(
  env: BlockEnv,
  code: string,
  data: PactValue,
  cap: SigCapability,
  signers: readonly Signer[],
  meta: PublicMeta | null,
  txHash: string,
  gasPayer: GasPayer | null = null,
): ContractOutcome {
  return runContractCommand({
    payload: { kind: "exec", code },
    data,
    signers,
    chainData: chainDataOf(env, meta),
    txHash,
    gasLimit: SYSTEM_GAS_LIMIT,
    gasModel: { kind: "fixed", rate: 0 },
    namespacePolicy: env.namespacePolicy,
    storage: env.storage,
    spv: env.spv,
    execFlags: CHAIN_EXEC_FLAGS,
    grantedCaps: [cap],
    gasPayer,
    file: "system",
  });
}

/** Runs the coinbase: `reward` (decimal text) to the miner. */
export function runCoinbase(
  env: BlockEnv,
  miner: MinerInfo,
  reward: Decimal,
  txHash: string,
): ContractOutcome {
  const data = makeObject([
    ["account", pString(miner.account)],
    ["miner-keyset", minerKeyset(miner)],
    ["reward", pDecimal(reward)],
  ]);
  return runSystem(env, COINBASE_CODE, data, COINBASE_CAP, [], null, txHash);
}

/** The command's signers for buying gas: GAS-scoped signers may also debit the sender. */
function buyGasSigners(signers: readonly Signer[], sender: string): Signer[] {
  return signers.map((s) =>
    s.caps.some((c) => c.name === GAS_CAP.name && c.args.length === 0)
      ? { ...s, caps: [...s.caps, { name: "coin.DEBIT", args: [pString(sender)] }] }
      : s,
  );
}

/**
 * Buys gas: `total` (gas limit × gas price) from the sender, with the
 * command's gas payer (`gasPayerOf`) acquired around it when there is one.
 */
export function buyGas(
  env: BlockEnv,
  meta: PublicMeta,
  signers: readonly Signer[],
  total: Decimal,
  txHash: string,
  gasPayer: GasPayer | null = null,
): ContractOutcome {
  const data = makeObject([
    ["sender", pString(meta.sender)],
    ["total", pDecimal(total)],
  ]);
  return runSystem(
    env,
    BUY_GAS_CODE,
    data,
    GAS_CAP,
    buyGasSigners(signers, meta.sender),
    meta,
    txHash,
    gasPayer,
  );
}

/** Redeems gas: `fee` to the miner, the rest of `total` back to the sender. */
export function redeemGas(
  env: BlockEnv,
  meta: PublicMeta,
  miner: MinerInfo,
  total: Decimal,
  fee: Decimal,
  txHash: string,
): ContractOutcome {
  const data = makeObject([
    ["miner", pString(miner.account)],
    ["miner-keyset", minerKeyset(miner)],
    ["sender", pString(meta.sender)],
    ["total", pDecimal(total)],
    ["fee", pDecimal(fee)],
  ]);
  return runSystem(env, REDEEM_GAS_CODE, data, GAS_CAP, [], meta, txHash);
}
