/**
 * What the evaluator may know about the world: message data, signers, chain
 * data, the transaction hash, execution flags, a gas meter and a storage
 * interface. The evaluator reads nothing else (no clock, no randomness, no I/O),
 * which makes every evaluation deterministic.
 * @module
 */
import type { Result } from "../../errors/result.ts";
import type { ContractStorage } from "../storage/contractStorage.ts";
import { createMemoryStorage } from "../storage/memoryStorage.ts";
import type { PactExec } from "../storage/pactExec.ts";
import type { Decimal } from "../values/decimal.ts";
import type { PactValue } from "../values/value.ts";

export type { ContractStorage };
export { createMemoryStorage };

/** A capability a signer scoped their signature to: `{name:"coin.TRANSFER", args}`. */
export type SigCapability = { readonly name: string; readonly args: readonly PactValue[] };

/**
 * A signer as the evaluator sees it: the key whose signature was verified
 * (command/verifySignatures.ts) and the capabilities it scoped that signature
 * to. A signer's `addr` is not carried here: the reference maps a signer to
 * `addr` when present, which is only safe because verification refuses an
 * `addr` that differs from `pubKey`; the evaluator takes the verified key.
 */
export type Signer = {
  readonly pubKey: string;
  readonly scheme: "ED25519" | "WebAuthn";
  readonly caps: readonly SigCapability[];
};

/**
 * The signers by their (verified) key. A key listed twice counts once, with its last signer's
 * capability list, as in the reference, whose evaluator holds the signatures as a map from key
 * to capabilities (`mkMsgSigs`: `M.fromList`). Keysets, managed-capability installs and the gas
 * payer all read the signers through this one view.
 */
export function signersByKey(signers: readonly Signer[]): Map<string, Signer> {
  const m = new Map<string, Signer>();
  for (const s of signers) m.set(s.pubKey, s);
  return m;
}

export type ChainData = {
  readonly chainId: string;
  readonly blockHeight: bigint;
  /** Microseconds since the Unix epoch. */
  readonly blockTime: bigint;
  readonly prevBlockHash: string;
  readonly sender: string;
  readonly gasLimit: bigint;
  readonly gasPrice: Decimal;
};

/** Counts work; the evaluator stops an evaluation once its meter is exhausted. */
export interface GasMeter {
  /**
   * Charges `units` before work of that size is done. Returns false once the
   * limit is exceeded; the caller then fails with a GasError at its position.
   */
  charge(units: number): boolean;
  /**
   * Charges a size-based cost (gasTable.ts); meters without it take it as
   * `charge`. The contract gas meter counts these under the table model only.
   */
  chargeSize?(units: number): boolean;
  /** Gas the rest of the limit affords for size charges (default: limit − used). */
  sizeBudget?(): number;
  readonly used: number;
  readonly limit: number;
}

/**
 * Who may define namespaces (reference §9.1). `simple`: anyone, and modules may
 * be defined at the root (the reference repl's default). `smart`: a new
 * namespace needs `(validator name admin-guard)` to return true (a qualified
 * defun name, e.g. `ns.validate`); `allowRoot` false forbids root definitions.
 */
export type NamespacePolicy =
  | { readonly kind: "simple" }
  | { readonly kind: "smart"; readonly allowRoot: boolean; readonly validator: string };

/** The outcome of an SPV check: the proven object, or why not. */
export type SpvResult<T> = Result<T>;

/**
 * SPV verification, injected (the execution area verifies proofs against the
 * chain database; the repl mocks it).
 */
export interface SpvSupport {
  /** `verify-spv TYPE PAYLOAD`. */
  verify(type: string, payload: PactValue): SpvResult<PactValue>;
  /** A cross-chain continuation's proof (base64url text): the proven defpact state. */
  verifyContinuation(proof: string): SpvResult<PactExec>;
}

/**
 * `repl`: everything allowed. `local`: a /local call, history natives allowed.
 * `transactional`: on chain; history natives, `describe-module` and
 * `list-modules` are refused (chainweb's DisableHistoryInTransactionalMode).
 */
export type ExecMode = "repl" | "local" | "transactional";

export type RuntimeContext = {
  /** The message data (`read-msg` …); an object. */
  readonly data: PactValue;
  readonly signers: readonly Signer[];
  readonly chainData: ChainData;
  /** Base64url transaction hash (`tx-hash`, the id of a defpact started here). */
  readonly txHash: string;
  /** Execution flags (`DisablePact44` …). */
  readonly execFlags: ReadonlySet<string>;
  readonly storage: ContractStorage;
  /** The work bound of one evaluation (steps; deterministic; see docs/contract-language.md). */
  readonly meter: GasMeter;
  /** Contract gas, charged from the gas table (eval/gasTable.ts). */
  readonly gas: GasMeter;
  readonly namespacePolicy: NamespacePolicy;
  readonly spv: SpvSupport | null;
  readonly mode: ExecMode;
  /**
   * The private-pact entity of this node (the repl's `env-entity`): a defpact
   * step naming an entity runs only when it matches. Absent or null: none.
   */
  readonly entity?: string | null | undefined;
  /**
   * True in the repl (unless `env-simulate-onchain`): errors then read as the
   * reference's repl shows them (its off-chain texts). Absent: on chain.
   */
  readonly inRepl?: boolean | undefined;
};

/** A gas meter counting evaluation steps (one per application, more for big work). */
export class StepMeter implements GasMeter {
  used = 0;
  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  charge(units: number): boolean {
    this.used += units;
    return this.used <= this.limit;
  }
}

/** The default step limit of one evaluation (bounds every run, however malformed). */
export const DEFAULT_STEP_LIMIT = 20_000_000;

/** Chain data defaults, as the reference repl has them. */
export const defaultChainData: ChainData = {
  chainId: "",
  blockHeight: 0n,
  blockTime: 0n,
  prevBlockHash: "",
  sender: "",
  gasLimit: 0n,
  gasPrice: { mantissa: 0n, scale: 0 },
};
