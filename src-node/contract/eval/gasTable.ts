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
      "remove",
      "sort",
      "typeof",
      "where",
      "with-capability",
      "compose-capability",
      "resume",
      "yield",
    ],
  ],
  [3, ["*", "/", "add-time", "drop", "take", "filter", "fold", "log"]],
  [4, ["^", "bind", "days", "hours", "minutes", "format", "format-time", "map", "zip"]],
  [5, ["hash", "exp"]],
  [6, ["ln", "sqrt", "enforce-one"]],
  [7, ["keyset-ref-guard"]],
  [8, ["enforce-guard", "enforce-keyset"]],
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
/** Reading one column of a row, one keyset, module, namespace or defpact record. */
export const GAS_READ_UNIT = 1;
/** Writes cost ceil(bytes / 10) of the key and the row's JSON. */
export const GAS_WRITE_BYTES_PER_UNIT = 10;
/** Installing a module or interface: a base cost plus ceil(bytes × 6 / 1000) of its code. */
export const GAS_MODULE_BASE = 60_000;
export const GAS_MODULE_PER_1000_BYTES = 6;

export function writeGas(bytes: number): number {
  return Math.ceil(bytes / GAS_WRITE_BYTES_PER_UNIT);
}

export function moduleInstallGas(codeBytes: number): number {
  return GAS_MODULE_BASE + Math.ceil((codeBytes * GAS_MODULE_PER_1000_BYTES) / 1000);
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
}

/** No limit to speak of (the repl's default until `env-gaslimit`). */
export const UNLIMITED_GAS = Number.MAX_SAFE_INTEGER;

/** Every native name with a cost other than 1 (for the golden file and docs). */
export function gasTableEntries(): readonly (readonly [string, number])[] {
  return [...NATIVE_COST.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
