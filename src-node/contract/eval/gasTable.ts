/**
 * Contract gas (reference §8.1, the Pact 4 table model, in whole gas units):
 * the cost of every native in one table, the cost of applying a user
 * function, of reads, writes and module installs, and the meter that charges
 * them before the work. Gas is deterministic: it depends only on the code,
 * its arguments and the state it reads. The table is pinned by
 * test/contract/natives.golden and documented in docs/contract-language.md.
 *
 * Two models: `table` (on chain; the repl's `(env-gasmodel "table")`) charges
 * the costs below; `fixed` charges a constant rate per charge (the repl's
 * default is rate 0, so nothing is charged until a script asks).
 * @module
 */
import type { PactValue } from "../values/value.ts";
import type { GasMeter } from "./runtimeContext.ts";

/** Natives whose cost is not 1, by cost (reference §8.1). */
const COSTS: readonly (readonly [number, readonly string[]])[] = [
  // The repl's own natives cost nothing, so scripts measure only the code under test.
  [
    0,
    [
      "begin-tx",
      "commit-tx",
      "rollback-tx",
      "expect",
      "expect-failure",
      "expect-that",
      "env-data",
      "env-keys",
      "env-sigs",
      "env-chain-data",
      "env-hash",
      "env-exec-config",
      "env-events",
      "env-gasmodel",
      "env-gaslimit",
      "env-gas",
      "env-namespace-policy",
      "env-enable-repl-natives",
      "print",
      "load",
      "pact-state",
      "mock-spv",
      "typecheck",
      "test-capability",
      "continue-pact",
      "sig-keyset",
      "env-simulate-onchain",
      "env-entity",
      "with-applied-env",
      "env-gasrate",
      "env-gasprice",
      "env-gaslog",
      "env-dynref",
      "verify",
    ],
  ],
  [
    2,
    [
      "=",
      "!=",
      "<",
      "<=",
      ">",
      ">=",
      "at",
      "contains",
      "distinct",
      "identity",
      "parse-time",
      "remove",
      "reverse",
      "sort",
      "time",
      "typeof",
      "where",
      "with-capability",
      "compose-capability",
      "resume",
      "yield",
    ],
  ],
  [3, ["*", "/", "add-time", "drop", "take", "filter", "fold", "install-capability", "log"]],
  [4, ["^", "bind", "days", "hours", "minutes", "format", "format-time", "map", "zip"]],
  [5, ["hash", "exp"]],
  [6, ["ln", "sqrt", "enforce-one"]],
  [7, ["keyset-ref-guard"]],
  [8, ["diff-time", "enforce-guard", "enforce-keyset"]],
  [10, ["read", "read-msg"]],
  [12, ["namespace"]],
  [13, ["with-read"]],
  [14, ["with-default-read"]],
  [25, ["define-keyset", "define-namespace"]],
  [
    100,
    [
      "insert",
      "update",
      "write",
      "describe-keyset",
      "describe-module",
      "describe-table",
      "describe-namespace",
      "list-modules",
      "verify-spv",
    ],
  ],
  [200, ["keys", "select", "fold-db"]],
  [250, ["create-table"]],
  [100_000, ["txids", "txlog", "keylog"]],
];

const NATIVE_COST: ReadonlyMap<string, number> = new Map(
  COSTS.flatMap(([cost, names]) => names.map((n) => [n, cost] as const)),
);

/** The cost of calling a native (charged once its arguments are known, before it runs). */
export function nativeGasCost(name: string): number {
  return NATIVE_COST.get(name) ?? 1;
}

/** Applying a defun, defcap body or defpact step. */
export const GAS_USER_APPLICATION = 1;
/** A top-level `use`. */
export const GAS_USE = 1;
/** Reading one column of a row, one keyset, module, namespace or defpact record. */
export const GAS_READ_UNIT = 1;
/** Size units per gas of a write's bound (the charge itself is `sizeOf.ts`'s `memoryGas`). */
export const GAS_WRITE_BYTES_PER_UNIT = 10;

// ---- Size charges (issue 15: gas that bounds time and memory).
//
// Pact 4.13 charges sizes in milligas (concatenation by its length, `make-list`,
// `sort`, `distinct` by a length penalty, writes by a tenth of their bytes) and
// rounds the total up. Weft counts whole gas and charges every native whose work
// grows with its inputs or outputs by those sizes, rounded down per call, so
// values of ordinary size add nothing to the table's figures while large ones
// pay for the time they take: the hostile benchmark (`npm run bench -- hostile`)
// keeps wall time per gas at most 5 µs. Natives call these through `Call`
// (natives/native.ts); docs/contract-language.md lists them.

/**
 * Evaluation steps (applications, `let`s, closures, and the work units
 * natives report to the work meter) an evaluation takes before each further
 * step costs one gas (a size charge): code that loops through closures or
 * module functions whose bodies call few natives pays for its time too,
 * while ordinary transactions keep the table's figures.
 */
export const FREE_STEPS = 10_000;
/** Elements each gas pays for when a native makes new values (`make-list`, `enumerate`, `str-to-list`; Pact's `GMakeList2`). */
export const GAS_NEW_ELEMENTS_PER_UNIT = 1;
/** Characters of text read, written, hashed or compared per gas. */
export const GAS_TEXT_CHARS_PER_UNIT = 16;
/** List items or object fields built, copied or visited per gas. */
export const GAS_ELEMENTS_PER_UNIT = 8;
/** Size ({@link valueSize}) of each output value (the result, an event's arguments) rendered for free. */
export const GAS_FREE_OUTPUT_SIZE = 65_536;
/** Elementary steps (comparisons of a sort, …) per gas. */
export const GAS_STEPS_PER_UNIT = 4;
/** Size units (see {@link valueSize}) of a value traversed per gas (render, JSON, hash, equality). */
export const GAS_VALUE_SIZE_PER_UNIT = 16;
/** Digits-worth of integer arithmetic (bits / 64 squared, see {@link integerOpGas}) per gas. */
export const GAS_INTEGER_WORDS_SQUARED_PER_UNIT = 64;

/**
 * The memory bound: the longest string (UTF-16 units) or list, the most
 * object fields, and the largest deep {@link valueSize} any native may build
 * or traverse. Past it the native fails with a GasError before the work.
 */
export const MAX_VALUE_LENGTH = 10_000_000;
export const MAX_VALUE_SIZE = 64_000_000;

/**
 * Pact's `expLengthPenalty` (`make-list` and `enumerate` under
 * `DisablePact45`): 1 + floor(log₁₀₀(len)¹⁰), computed as the reference does,
 * in single precision (`Float`), the power by repeated squaring (x⁸ · x²).
 */
export function expLengthPenalty(len: number): number {
  const f = Math.fround;
  const lv = f(f(Math.log(f(len))) / f(Math.log(100)));
  const x2 = f(lv * lv);
  const x4 = f(x2 * x2);
  const x8 = f(x4 * x4);
  return 1 + Math.floor(f(x8 * x2));
}

/**
 * Pact's `intCost` of an integer element: nothing below 10^80 (10^30 under
 * `DisablePact48`), then the square of its bytes over 100.
 */
export function pactIntCost(a: bigint, disablePact48: boolean): number {
  const abs = a < 0n ? -a : a;
  if (abs < (disablePact48 ? 10n ** 30n : 10n ** 80n)) return 0;
  const bytes = Math.floor(abs.toString(2).length / 8);
  return Math.floor((bytes * bytes) / 100);
}

/**
 * Gas for a list of `len` new elements `make-list` or `enumerate` builds
 * (Pact's `GMakeList2`: the length, plus the length times the `intCost` of
 * the largest integer element, `largest`, for `enumerate`), or under
 * `DisablePact45` its length penalty (`GMakeList`).
 */
export function makeListGas(
  len: number,
  largest: bigint | null,
  flags: ReadonlySet<string>,
): number {
  if (flags.has("DisablePact45")) return expLengthPenalty(len);
  const per = largest === null ? 0 : pactIntCost(largest, flags.has("DisablePact48"));
  return len + len * per;
}

/** Gas for `chars` characters of text processed. */
export function textGas(chars: number): number {
  return Math.floor(chars / GAS_TEXT_CHARS_PER_UNIT);
}

/** Gas for `n` list items or object fields built or visited. */
export function elementsGas(n: number): number {
  return Math.floor(n / GAS_ELEMENTS_PER_UNIT);
}

/** Gas for `n` elementary steps of a native (comparisons of a sort, …). */
export function stepsGas(n: number): number {
  return Math.floor(n / GAS_STEPS_PER_UNIT);
}

/** Gas for traversing a value of deep size `size` ({@link valueSize}). */
export function valueSizeGas(size: number): number {
  return Math.floor(size / GAS_VALUE_SIZE_PER_UNIT);
}

/**
 * Gas for an integer operation on operands of `bitsA` and `bitsB` bits:
 * nothing below 1024 bits, then the product of their sizes in 64-bit words
 * (multiplication and division are quadratic in bigint arithmetic).
 */
export function integerOpGas(bitsA: number, bitsB: number): number {
  if (bitsA < 1024 && bitsB < 1024) return 0;
  const wa = Math.ceil(bitsA / 64);
  const wb = Math.ceil(bitsB / 64);
  return Math.floor((wa * wb) / GAS_INTEGER_WORDS_SQUARED_PER_UNIT) + Math.floor((wa + wb) / 8);
}

/** Per node of a value in {@link valueSize}: what a list item or object field costs to visit. */
export const NODE_SIZE = 8;

/**
 * The deep size of a value, in units of about one byte of its JSON text
 * (strings by length, numbers by digits, NODE_SIZE per list item, object
 * field and guard), counting shared parts each time they occur. The walk
 * stops once the size passes `cap` and returns a number above `cap`, so it
 * visits at most cap / NODE_SIZE nodes: a value built by nesting shared
 * lists is never walked in full.
 */
export function valueSize(v: PactValue, cap: number): number {
  const flat = scalarSize(v);
  if (flat >= 0) return flat;
  let size = 0;
  const stack: PactValue[] = [v];
  while (stack.length > 0) {
    const x = stack.pop() as PactValue;
    size += NODE_SIZE;
    switch (x.kind) {
      case "list":
        // Scalars are counted here, not pushed: most lists hold few containers.
        for (const i of x.items) {
          const s = scalarSize(i);
          if (s >= 0) size += s;
          else stack.push(i);
        }
        break;
      case "object":
        for (const [k, f] of x.fields) {
          size += k.length;
          const s = scalarSize(f);
          if (s >= 0) size += s;
          else stack.push(f);
        }
        break;
      case "guard": {
        const g = x.guard;
        if (g.kind === "keyset") size += g.keys.length * 66 + g.pred.length;
        else if (g.kind === "user" || g.kind === "capability") {
          size += g.kind === "user" ? g.fun.length : g.name.length;
          for (const a of g.args) stack.push(a);
        } else size += 64;
        break;
      }
      default:
        size += 16;
    }
    if (size > cap) return size;
  }
  return size;
}

/** A scalar's {@link valueSize} (its NODE_SIZE included), or -1 for a list, object or guard. */
export function scalarSize(x: PactValue): number {
  switch (x.kind) {
    case "string":
      return NODE_SIZE + x.value.length;
    case "integer":
      return NODE_SIZE + Math.ceil(bigintBits(x.value) / 3.3);
    case "decimal":
      return NODE_SIZE + Math.ceil(bigintBits(x.value.mantissa) / 3.3) + 1;
    case "list":
    case "object":
    case "guard":
      return -1;
    default:
      return NODE_SIZE + 16;
  }
}

/** Bits of a bigint's magnitude (0 for 0), in time proportional to its size / 4096. */
export function bigintBits(n: bigint): number {
  const a = n < 0n ? -n : n;
  if (a < 0x100000000n) return a === 0n ? 0 : 32 - Math.clz32(Number(a));
  return a.toString(16).length * 4;
}

export type GasModel =
  | { readonly kind: "table" }
  | { readonly kind: "fixed"; readonly rate: number };

/** The contract gas meter: applies its model to each charge and counts against a limit. */
export class ContractGasMeter implements GasMeter {
  used = 0;
  limit: number;
  model: GasModel;

  constructor(model: GasModel, limit: number) {
    this.model = model;
    this.limit = limit;
  }

  charge(units: number): boolean {
    // Free work (the repl's natives) costs nothing under every model, and never fails.
    if (units === 0) return true;
    this.used += this.model.kind === "table" ? units : this.model.rate;
    return this.used <= this.limit;
  }

  /** Size charges count under the table model only (a fixed rate is per native call). */
  chargeSize(units: number): boolean {
    if (units === 0 || this.model.kind !== "table") return true;
    this.used += units;
    return this.used <= this.limit;
  }

  /** What the rest of the limit buys under this model (size charges are free at a fixed rate). */
  sizeBudget(): number {
    return this.model.kind === "table"
      ? Math.max(0, this.limit - this.used)
      : Number.MAX_SAFE_INTEGER;
  }
}

/** No limit to speak of (the repl's default until `env-gaslimit`). */
export const UNLIMITED_GAS = Number.MAX_SAFE_INTEGER;

/** Every native name with a cost other than 1 (for the golden file and docs). */
export function gasTableEntries(): readonly (readonly [string, number])[] {
  return [...NATIVE_COST.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
