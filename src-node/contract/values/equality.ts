/**
 * Equality and ordering of values (reference §2.10): literal equality is by kind
 * and value (`1` ≠ `1.0`, `1.0` = `1.00`); lists and objects structurally; guards
 * and module references structurally.
 * @module
 */
import { decimalCompare } from "./decimal.ts";
import { compareCodePoints, type Guard, type PactValue } from "./value.ts";

function guardEquals(a: Guard, b: Guard): boolean {
  switch (a.kind) {
    case "keyset":
      return (
        b.kind === "keyset" &&
        a.pred === b.pred &&
        a.keys.length === b.keys.length &&
        a.keys.every((k, i) => k === b.keys[i])
      );
    case "keysetRef":
      return b.kind === "keysetRef" && a.name === b.name && a.namespace === b.namespace;
    case "user":
      return b.kind === "user" && a.fun === b.fun && listEquals(a.args, b.args);
    case "module":
      return (
        b.kind === "module" &&
        a.name === b.name &&
        a.module.name === b.module.name &&
        a.module.namespace === b.module.namespace
      );
    case "pact":
      return b.kind === "pact" && a.pactId === b.pactId && a.name === b.name;
    case "capability":
      return (
        b.kind === "capability" &&
        a.name === b.name &&
        a.pactId === b.pactId &&
        listEquals(a.args, b.args)
      );
    default: {
      const never: never = a;
      return never;
    }
  }
}

function listEquals(a: readonly PactValue[], b: readonly PactValue[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++)
    if (!valueEquals(a[i] as PactValue, b[i] as PactValue)) return false;
  return true;
}

/** Structural equality; values of different kinds are unequal. */
export function valueEquals(a: PactValue, b: PactValue): boolean {
  if (a === b) return true;
  switch (a.kind) {
    case "integer":
      return b.kind === "integer" && a.value === b.value;
    case "decimal":
      return b.kind === "decimal" && decimalCompare(a.value, b.value) === 0;
    case "string":
      return b.kind === "string" && a.value === b.value;
    case "bool":
      return b.kind === "bool" && a.value === b.value;
    case "time":
      return b.kind === "time" && a.micros === b.micros;
    case "list":
      return b.kind === "list" && listEquals(a.items, b.items);
    case "object": {
      if (b.kind !== "object" || a.fields.size !== b.fields.size) return false;
      for (const [k, v] of a.fields) {
        const w = b.fields.get(k);
        if (w === undefined || !valueEquals(v, w)) return false;
      }
      return true;
    }
    case "guard":
      return b.kind === "guard" && guardEquals(a.guard, b.guard);
    case "modref":
      return (
        b.kind === "modref" &&
        a.module.name === b.module.name &&
        a.module.namespace === b.module.namespace &&
        JSON.stringify(a.spec) === JSON.stringify(b.spec) &&
        (a.info ?? null) === (b.info ?? null)
      );
    default: {
      const never: never = a;
      return never;
    }
  }
}

/**
 * Whether `=` may compare the two: literals of any kinds, or two values of the
 * same composite kind. Anything else is "cannot compare incompatible types".
 */
function isLiteral(v: PactValue): boolean {
  return (
    v.kind === "integer" ||
    v.kind === "decimal" ||
    v.kind === "string" ||
    v.kind === "bool" ||
    v.kind === "time"
  );
}

export function canCompareForEquality(a: PactValue, b: PactValue): boolean {
  // No closures here: a hot path, and tsx names every closure it creates.
  if (isLiteral(a) && isLiteral(b)) return true;
  return a.kind === b.kind;
}

/**
 * Orders two values of the same primitive kind (integer, decimal, string, time);
 * null when they cannot be ordered.
 */
export function compareOrdered(a: PactValue, b: PactValue): -1 | 0 | 1 | null {
  if (a.kind === "integer" && b.kind === "integer")
    return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  if (a.kind === "decimal" && b.kind === "decimal") return decimalCompare(a.value, b.value);
  if (a.kind === "string" && b.kind === "string") return compareCodePoints(a.value, b.value);
  if (a.kind === "time" && b.kind === "time")
    return a.micros < b.micros ? -1 : a.micros > b.micros ? 1 : 0;
  return null;
}
