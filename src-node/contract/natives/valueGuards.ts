/**
 * Small narrowing helpers natives use to take their arguments apart.
 * @module
 */
import { type Callable, isCallable, isOpaque, type Opaque, type Value } from "../eval/term.ts";
import type { Decimal } from "../values/decimal.ts";
import { showValue } from "../values/render.ts";
import { typeOfValue } from "../values/typeOf.ts";
import type { PactValue } from "../values/value.ts";

/** True for values that are not data: functions, tables, schemas. */
export function isOpaqueValue(v: Value): v is Opaque {
  return isOpaque(v);
}

/** A value's type as the reference's on-chain messages name it. */
export function typeName(v: Value): string {
  return isOpaqueValue(v) ? "<function>" : typeOfValue(v);
}

/** A value as the reference's off-chain messages print it. */
export function shownOf(v: Value): string {
  return isOpaqueValue(v) ? "<function>" : showValue(v);
}

export function isPact(v: Value | undefined): v is PactValue {
  return v !== undefined && !isOpaqueValue(v);
}

export function intOf(v: Value | undefined): bigint | null {
  return v !== undefined && v.kind === "integer" ? v.value : null;
}

export function decOf(v: Value | undefined): Decimal | null {
  return v !== undefined && v.kind === "decimal" ? v.value : null;
}

export function strOf(v: Value | undefined): string | null {
  return v !== undefined && v.kind === "string" ? v.value : null;
}

export function boolOf(v: Value | undefined): boolean | null {
  return v !== undefined && v.kind === "bool" ? v.value : null;
}

export function listOf(v: Value | undefined): readonly PactValue[] | null {
  return v !== undefined && v.kind === "list" ? v.items : null;
}

export function objOf(v: Value | undefined): ReadonlyMap<string, PactValue> | null {
  return v !== undefined && v.kind === "object" ? v.fields : null;
}

export function fnOf(v: Value | undefined): Callable | null {
  return v !== undefined && isCallable(v) ? v : null;
}
