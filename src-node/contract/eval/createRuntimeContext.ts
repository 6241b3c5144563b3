/**
 * Builds a {@link RuntimeContext} from partial options, with the reference
 * repl's defaults (empty data, no signers, default chain data, the hash of the
 * empty string as the tx hash, an in-memory storage, a step meter, gas at a
 * fixed rate of 0, the simple namespace policy, no SPV, repl mode).
 * @module
 */
import { blake2b256 } from "../../crypto/blake2.ts";
import { base64UrlEncode } from "../../encoding/base64url.ts";
import { createMemoryStorage } from "../storage/memoryStorage.ts";
import { makeObject } from "../values/value.ts";
import { ContractGasMeter, UNLIMITED_GAS } from "./gasTable.ts";
import {
  type ChainData,
  DEFAULT_STEP_LIMIT,
  defaultChainData,
  type RuntimeContext,
  StepMeter,
} from "./runtimeContext.ts";

/** `tx-hash` when none was set: the hash of the empty string. */
export const DEFAULT_TX_HASH = base64UrlEncode(blake2b256(""));

export function createRuntimeContext(
  opts: Partial<RuntimeContext> & { stepLimit?: number } = {},
): RuntimeContext {
  const chainData: ChainData = opts.chainData ?? defaultChainData;
  return {
    data: opts.data ?? makeObject([]),
    signers: opts.signers ?? [],
    chainData,
    txHash: opts.txHash ?? DEFAULT_TX_HASH,
    execFlags: opts.execFlags ?? new Set(),
    storage: opts.storage ?? createMemoryStorage(),
    meter: opts.meter ?? new StepMeter(opts.stepLimit ?? DEFAULT_STEP_LIMIT),
    gas: opts.gas ?? new ContractGasMeter({ kind: "fixed", rate: 0 }, UNLIMITED_GAS),
    namespacePolicy: opts.namespacePolicy ?? { kind: "simple" },
    spv: opts.spv ?? null,
    mode: opts.mode ?? "repl",
  };
}
