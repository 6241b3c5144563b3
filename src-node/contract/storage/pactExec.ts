/**
 * Defpact state (reference §3.4, `PactExec`): what a step leaves for the next
 * one, stored in the pacts system table and returned as a command result's
 * `continuation`. Its JSON keeps the reference's key order; the defpact id is
 * written `pactId` (the spec's neutral name for it is `contractTxHash`; see
 * docs/commands.md).
 * @module
 */
import {
  isJsonObject,
  JsonNumber,
  type JsonValue,
  pactValueFromJson,
  pactValueToJsonText,
  parseJsonExact,
} from "../values/json.ts";
import type { PactValue } from "../values/value.ts";

/** Where a cross-chain yield may be resumed: the target chain and the yielding module's hash. */
export type Provenance = { readonly targetChainId: string; readonly moduleHash: string };

export type PactYield = {
  /** The yielded object. */
  readonly data: PactValue;
  readonly provenance: Provenance | null;
  /** The chain that yielded, when known. */
  readonly source: string | null;
};

/** The defpact and its arguments, as `{def: "mod.name", args}`. */
export type PactContinuation = { readonly def: string; readonly args: readonly PactValue[] };

export type PactExec = {
  readonly stepCount: number;
  readonly yield: PactYield | null;
  /** Private steps only; null for public ones. */
  readonly executed: boolean | null;
  readonly step: number;
  readonly pactId: string;
  readonly continuation: PactContinuation;
  readonly stepHasRollback: boolean;
  /** Nested defpacts started by this one's steps, by pact id (sorted). */
  readonly nested: readonly PactExec[];
};

function str(s: string): string {
  return pactValueToJsonText({ kind: "string", value: s });
}

function yieldJson(y: PactYield): string {
  const parts = [`"data":${pactValueToJsonText(y.data)}`];
  if (y.source !== null) parts.push(`"source":${str(y.source)}`);
  parts.push(
    `"provenance":${y.provenance === null ? "null" : `{"targetChainId":${str(y.provenance.targetChainId)},"moduleHash":${str(y.provenance.moduleHash)}}`}`,
  );
  return `{${parts.join(",")}}`;
}

function continuationJson(c: PactContinuation): string {
  return `{"args":[${c.args.map(pactValueToJsonText).join(",")}],"def":${str(c.def)}}`;
}

function nestedJson(e: PactExec): string {
  return `{"executed":${e.executed === null ? "null" : String(e.executed)},"pactId":${str(e.pactId)},"step":${e.step},"yield":${e.yield === null ? "null" : yieldJson(e.yield)},"continuation":${continuationJson(e.continuation)},"stepCount":${e.stepCount}${e.nested.length > 0 ? `,"nested":{${e.nested.map((n) => `${str(n.pactId)}:${nestedJson(n)}`).join(",")}}` : ""}}`;
}

/** Compact JSON text of a PactExec (the `continuation` of a command result). */
export function pactExecToJsonText(e: PactExec): string {
  const nested =
    e.nested.length > 0
      ? `,"nested":{${e.nested.map((n) => `${str(n.pactId)}:${nestedJson(n)}`).join(",")}}`
      : "";
  return `{"executed":${e.executed === null ? "null" : String(e.executed)},"pactId":${str(e.pactId)},"stepHasRollback":${e.stepHasRollback},"step":${e.step},"yield":${e.yield === null ? "null" : yieldJson(e.yield)},"continuation":${continuationJson(e.continuation)},"stepCount":${e.stepCount}${nested}}`;
}

/** A PactExec as JSON data. */
export function pactExecToJson(e: PactExec): JsonValue {
  return parseJsonExact(pactExecToJsonText(e));
}

function intOf(j: JsonValue | undefined): number | null {
  const n = typeof j === "number" ? j : j instanceof JsonNumber ? Number(j.text) : Number.NaN;
  return Number.isSafeInteger(n) ? n : null;
}

function pactValueOf(j: JsonValue | undefined): PactValue | null {
  if (j === undefined) return null;
  const r = pactValueFromJson(j);
  return r.ok ? r.value : null;
}

function yieldFrom(j: JsonValue | undefined): PactYield | null | "bad" {
  if (j === null || j === undefined) return null;
  if (!isJsonObject(j)) return "bad";
  const data = pactValueOf(j.data);
  if (data === null || data.kind !== "object") return "bad";
  const p = j.provenance;
  let provenance: Provenance | null = null;
  if (p !== null && p !== undefined) {
    if (!isJsonObject(p) || typeof p.targetChainId !== "string" || typeof p.moduleHash !== "string")
      return "bad";
    provenance = { targetChainId: p.targetChainId, moduleHash: p.moduleHash };
  }
  const source = typeof j.source === "string" ? j.source : null;
  return { data, provenance, source };
}

function execFrom(j: JsonValue | undefined, nestedLevel: boolean): PactExec | null {
  if (!isJsonObject(j)) return null;
  const pactId = j.pactId ?? j.contractTxHash;
  const step = intOf(j.step);
  const stepCount = intOf(j.stepCount);
  const c = j.continuation;
  if (typeof pactId !== "string" || step === null || stepCount === null || !isJsonObject(c))
    return null;
  if (typeof c.def !== "string" || !Array.isArray(c.args)) return null;
  const args: PactValue[] = [];
  for (const a of c.args as JsonValue[]) {
    const v = pactValueOf(a);
    if (v === null) return null;
    args.push(v);
  }
  const y = yieldFrom(j.yield);
  if (y === "bad") return null;
  const executed = j.executed === true ? true : j.executed === false ? false : null;
  const stepHasRollback = nestedLevel ? false : j.stepHasRollback === true;
  const nested: PactExec[] = [];
  if (isJsonObject(j.nested)) {
    for (const k of Object.keys(j.nested).sort()) {
      const n = execFrom(j.nested[k], true);
      if (n === null) return null;
      nested.push(n);
    }
  }
  return {
    stepCount,
    yield: y,
    executed,
    step,
    pactId,
    continuation: { def: c.def, args },
    stepHasRollback,
    nested,
  };
}

/** Decodes a PactExec from JSON (e.g. a proven command result's `continuation`); null if malformed. */
export function pactExecFromJson(j: JsonValue): PactExec | null {
  return execFrom(j, false);
}
