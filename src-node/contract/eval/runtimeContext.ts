/**
 * What the evaluator may know about the world: message data, signers, chain
 * data, the transaction hash, execution flags, a gas meter and a storage
 * interface. The evaluator reads nothing else (no clock, no randomness, no I/O),
 * which makes every evaluation deterministic.
 * @module
 */
import type { Decimal } from "../values/decimal.ts";
import type { PactValue } from "../values/value.ts";

/** A capability a signer scoped their signature to: `{name:"coin.TRANSFER", args}`. */
export type SigCapability = { readonly name: string; readonly args: readonly PactValue[] };

export type Signer = {
  readonly pubKey: string;
  readonly scheme: "ED25519" | "WebAuthn";
  readonly addr: string | null;
  readonly caps: readonly SigCapability[];
};

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

/**
 * Contract state as the evaluator sees it (tables arrive in part 2). Writes are
 * buffered in the current transaction until commit. Rows are objects.
 */
export interface ContractStorage {
  /** Starts a transaction; returns its id. */
  beginTx(): number;
  commitTx(): void;
  rollbackTx(): void;
  readRow(table: string, key: string): PactValue | null;
  writeRow(table: string, key: string, row: PactValue): void;
  /** Keys of a table, ascending. */
  keys(table: string): string[];
}

/** Counts work; the evaluator stops an evaluation once its meter is exhausted. */
export interface GasMeter {
  /**
   * Charges `units` before work of that size is done. Returns false once the
   * limit is exceeded; the caller then fails with a GasError at its position.
   */
  charge(units: number): boolean;
  readonly used: number;
  readonly limit: number;
}

export type RuntimeContext = {
  /** The message data (`read-msg` …); an object. */
  readonly data: PactValue;
  readonly signers: readonly Signer[];
  readonly chainData: ChainData;
  /** Base64url transaction hash (`tx-hash`). */
  readonly txHash: string;
  /** Execution flags (`DisablePact44` …). */
  readonly execFlags: ReadonlySet<string>;
  readonly storage: ContractStorage;
  readonly meter: GasMeter;
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

/** An in-memory {@link ContractStorage} (the repl's; tests). */
export function createMemoryStorage(): ContractStorage {
  const committed = new Map<string, Map<string, PactValue>>();
  let pending: Map<string, Map<string, PactValue>> | null = null;
  let txId = 0;
  const table = (m: Map<string, Map<string, PactValue>>, t: string): Map<string, PactValue> => {
    let x = m.get(t);
    if (x === undefined) {
      x = new Map();
      m.set(t, x);
    }
    return x;
  };
  return {
    beginTx() {
      pending = new Map();
      return txId++;
    },
    commitTx() {
      if (pending !== null) {
        for (const [t, rows] of pending) for (const [k, v] of rows) table(committed, t).set(k, v);
      }
      pending = null;
    },
    rollbackTx() {
      pending = null;
    },
    readRow(t, k) {
      return pending?.get(t)?.get(k) ?? committed.get(t)?.get(k) ?? null;
    },
    writeRow(t, k, row) {
      // Outside a transaction writes auto-commit (the reference's SQLite repl does).
      table(pending ?? committed, t).set(k, row);
    },
    keys(t) {
      const ks = new Set([...(committed.get(t)?.keys() ?? []), ...(pending?.get(t)?.keys() ?? [])]);
      return [...ks].sort();
    },
  };
}
