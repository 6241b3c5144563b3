/**
 * Contract values ↔ JSON (reference §3.5).
 *
 * Encoding: integer → `{"int":n}` (a string past 2^53−1); decimal → a number in
 * aeson's `Scientific` rendering, or `{"decimal":"…"}` past 2^53−1; time →
 * `{"time":…}` or `{"timep":…}`; guards and module references in their fixed
 * shapes; objects with keys in the legacy order (§3.6). The compact text of
 * {@link pactValueToJsonText} is what `hash` hashes.
 *
 * Decoding: numbers → decimals, `{"int":…}` → integer, `{"decimal":…}`,
 * `{"time":…}`/`{"timep":…}` → time, guard shapes → guards, other objects →
 * objects. Exact JSON itself (numbers kept as text, the parser, string
 * escaping) is the command model's (command/exactJson.ts), re-exported here
 * for the contract language's code.
 * @module
 */

import {
  isJsonObject,
  JsonNumber,
  type JsonValue,
  jsonString,
  parseJsonExact,
} from "../../command/exactJson.ts";
import type { Result } from "../../errors/result.ts";
import {
  type Decimal,
  decimalNormalize,
  decimalToPlainString,
  decimalToString,
  MAX_SCALE,
  pow10,
} from "./decimal.ts";
import { legacyOrder } from "./legacyKeyOrder.ts";
import { formatTime, formatTimeDefault, parseTime } from "./time.ts";
import { type Guard, makeObject, type PactValue, pString } from "./value.ts";

export {
  isJsonObject,
  JsonNumber,
  type JsonValue,
  parseJsonExact,
} from "../../command/exactJson.ts";

const MAX_SAFE = 9007199254740991n;

/** aeson's rendering of a decimal as a JSON number (§3.5). */
export function decimalToJsonNumber(d: Decimal): string {
  const n = decimalNormalize(d);
  if (n.scale === 0) return n.mantissa.toString();
  const neg = n.mantissa < 0n;
  const abs = neg ? -n.mantissa : n.mantissa;
  // 0.1 <= |x| < 10^7  <=>  10^(scale-1) <= abs < 10^(scale+7)
  if (abs >= pow10(n.scale - 1) && abs < pow10(n.scale + 7)) return decimalToPlainString(n);
  const digits = abs.toString();
  const exp = digits.length - 1 - n.scale;
  const frac = digits.slice(1) || "0";
  return `${neg ? "-" : ""}${digits[0]}.${frac}e${exp}`;
}

/** Module names as the reference encodes them (`{"namespace", "name"}`), or as text. */
function moduleNameList(j: JsonValue): string[] | null {
  if (!Array.isArray(j)) return null;
  const out: string[] = [];
  for (const x of j) {
    if (typeof x === "string") out.push(x);
    else if (
      isJsonObject(x) &&
      typeof x.name === "string" &&
      (x.namespace === null || typeof x.namespace === "string")
    )
      out.push(x.namespace === null ? x.name : `${x.namespace}.${x.name}`);
    else return null;
  }
  return out;
}

/** A module name (`ns.m` or `m`) as the reference encodes a `ModuleName`. */
function moduleNameJson(fq: string): string {
  const dot = fq.lastIndexOf(".");
  const ns = dot > 0 ? jsonString(fq.slice(0, dot)) : "null";
  return `{"namespace":${ns},"name":${jsonString(dot > 0 ? fq.slice(dot + 1) : fq)}}`;
}

function guardToJsonText(g: Guard): string {
  switch (g.kind) {
    case "keyset":
      return `{"pred":${jsonString(g.pred)},"keys":[${g.keys.map(jsonString).join(",")}]}`;
    case "keysetRef":
      return g.namespace === null
        ? `{"keysetref":${jsonString(g.name)}}`
        : `{"keysetref":{"ns":${jsonString(g.namespace)},"ksn":${jsonString(g.name)}}}`;
    case "user":
      return `{"args":[${g.args.map(pactValueToJsonText).join(",")}],"fun":${jsonString(g.fun)}}`;
    case "module":
      return `{"moduleName":{"namespace":${g.module.namespace === null ? "null" : jsonString(g.module.namespace)},"name":${jsonString(g.module.name)}},"name":${jsonString(g.name)}}`;
    case "pact":
      return `{"pactId":${jsonString(g.pactId)},"name":${jsonString(g.name)}}`;
    case "capability":
      return `{"cgPactId":${g.pactId === null ? "null" : jsonString(g.pactId)},"cgArgs":[${g.args.map(pactValueToJsonText).join(",")}],"cgName":${jsonString(g.name)}}`;
    default: {
      const never: never = g;
      return never;
    }
  }
}

/** Compact Pact JSON text, objects in the legacy key order (what `hash` hashes). */
export function pactValueToJsonText(v: PactValue): string {
  switch (v.kind) {
    case "string":
      return jsonString(v.value);
    case "bool":
      return v.value ? "true" : "false";
    case "integer": {
      const abs = v.value < 0n ? -v.value : v.value;
      return abs <= MAX_SAFE ? `{"int":${v.value}}` : `{"int":"${v.value}"}`;
    }
    case "decimal": {
      const abs = v.value.mantissa < 0n ? -v.value.mantissa : v.value.mantissa;
      return abs <= MAX_SAFE
        ? decimalToJsonNumber(v.value)
        : `{"decimal":"${decimalToString(v.value)}"}`;
    }
    case "time":
      return timeToJsonText(v.micros);
    case "list":
      return `[${v.items.map(pactValueToJsonText).join(",")}]`;
    case "object": {
      const keys = legacyOrder([...v.fields.keys()]);
      return `{${keys.map((k) => `${jsonString(k)}:${pactValueToJsonText(v.fields.get(k) as PactValue)}`).join(",")}}`;
    }
    case "guard":
      return guardToJsonText(v.guard);
    case "modref":
      // Before Pact 4.9 a reference carried where it was written (`refInfo`; see value.ts).
      return `{"refSpec":${v.spec === null ? "null" : `[${v.spec.map(moduleNameJson).join(",")}]`},${v.info === undefined ? "" : `"refInfo":${v.info},`}"refName":{"namespace":${v.module.namespace === null ? "null" : jsonString(v.module.namespace)},"name":${jsonString(v.module.name)}}}`;
    default: {
      const never: never = v;
      return never;
    }
  }
}

function timeToJsonText(micros: bigint): string {
  let sub = micros % 1_000_000n;
  if (sub < 0n) sub += 1_000_000n;
  // The reference's check is "microseconds mod 1000 ≠ 0" (kept for replay).
  if (sub % 1000n !== 0n) return `{"timep":"${formatTime("%Y-%m-%dT%H:%M:%S.%vZ", micros)}"}`;
  return `{"time":"${formatTimeDefault(micros)}"}`;
}

/**
 * JSON data for a value (for API responses); key order follows the legacy order
 * where JavaScript preserves it. Use {@link pactValueToJsonText} for exact bytes.
 */
export function pactValueToJson(v: PactValue): JsonValue {
  const parsed = parseJsonExact(pactValueToJsonText(v));
  return toPlainNumbers(parsed);
}

function toPlainNumbers(j: JsonValue): JsonValue {
  if (j instanceof JsonNumber) return Number(j.text);
  if (Array.isArray(j)) return j.map(toPlainNumbers);
  if (j !== null && typeof j === "object") {
    const out: { [k: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(j as { [k: string]: JsonValue }))
      out[k] = toPlainNumbers(v);
    return out;
  }
  return j;
}

/**
 * A result's JSON the lenient way of the reference (`toPactValueLenient`): a
 * top-level integer becomes a decimal number; anything else as {@link pactValueToJson}.
 */
export function resultToJson(v: PactValue): JsonValue {
  if (v.kind === "integer")
    return pactValueToJson({ kind: "decimal", value: { mantissa: v.value, scale: 0 } });
  return pactValueToJson(v);
}

// ---------------------------------------------------------------------------
// Decoding

/** Why a JSON value could not become a contract value. */
export type JsonDecodeResult = Result<PactValue>;

const NUMBER_TEXT = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** A JSON number's text as an exact, normalised decimal (aeson `Scientific`). */
export function decimalFromJsonNumberText(text: string): Decimal | null {
  const m = NUMBER_TEXT.exec(text);
  if (m === null) return null;
  const intPart = m[1] as string;
  const frac = (m[2] ?? "").slice(1);
  const exp = m[3] === undefined ? 0 : Number(m[3].slice(1));
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 100_000) return null;
  let mant = BigInt(`${text.startsWith("-") ? "-" : ""}${intPart}${frac}`);
  let scale = frac.length - exp;
  if (scale < 0) {
    mant *= pow10(-scale);
    scale = 0;
  }
  const d = decimalNormalize({ mantissa: mant, scale });
  return d.scale > MAX_SCALE ? null : d;
}

function numberText(j: JsonValue): string | null {
  if (j instanceof JsonNumber) return j.text;
  if (typeof j === "number") return Number.isFinite(j) ? String(j) : null;
  return null;
}

function stringList(j: JsonValue): string[] | null {
  if (!Array.isArray(j)) return null;
  const out: string[] = [];
  for (const x of j as JsonValue[]) {
    if (typeof x !== "string") return null;
    out.push(x);
  }
  return out;
}

/** Keyset data: `{"keys":[…],"pred":…}`; keys sorted and de-duplicated. */
export function keysetGuard(keys: readonly string[], pred: string): Guard {
  const sorted = [...new Set(keys)].sort();
  return { kind: "keyset", keys: sorted, pred };
}

function decodeGuard(
  o: { readonly [key: string]: JsonValue },
  keys: string[],
): Guard | null | "bad" {
  const has = (...ks: string[]): boolean =>
    ks.length === keys.length && ks.every((k) => keys.includes(k));
  if (has("keys", "pred")) {
    const ks = stringList(o.keys as JsonValue);
    if (ks === null || typeof o.pred !== "string") return "bad";
    return keysetGuard(ks, o.pred);
  }
  if (has("keysetref")) {
    const r = o.keysetref as JsonValue;
    if (typeof r === "string") {
      const dot = r.lastIndexOf(".");
      return dot > 0
        ? { kind: "keysetRef", namespace: r.slice(0, dot), name: r.slice(dot + 1) }
        : { kind: "keysetRef", namespace: null, name: r };
    }
    if (isJsonObject(r) && typeof r.ns === "string" && typeof r.ksn === "string") {
      return { kind: "keysetRef", namespace: r.ns, name: r.ksn };
    }
    return "bad";
  }
  if (has("fun", "args")) {
    if (typeof o.fun !== "string" || !Array.isArray(o.args)) return "bad";
    const args: PactValue[] = [];
    for (const a of o.args as JsonValue[]) {
      const r = pactValueFromJson(a);
      if (!r.ok) return "bad";
      args.push(r.value);
    }
    return { kind: "user", fun: o.fun, args };
  }
  if (has("moduleName", "name")) {
    const mn = o.moduleName as JsonValue;
    if (!isJsonObject(mn) || typeof mn.name !== "string" || typeof o.name !== "string")
      return "bad";
    const ns = mn.namespace;
    return {
      kind: "module",
      module: { namespace: typeof ns === "string" ? ns : null, name: mn.name },
      name: o.name,
    };
  }
  if (has("pactId", "name")) {
    if (typeof o.pactId !== "string" || typeof o.name !== "string") return "bad";
    return { kind: "pact", pactId: o.pactId, name: o.name };
  }
  if (has("cgName", "cgArgs", "cgPactId")) {
    if (typeof o.cgName !== "string" || !Array.isArray(o.cgArgs)) return "bad";
    const args: PactValue[] = [];
    for (const a of o.cgArgs as JsonValue[]) {
      const r = pactValueFromJson(a);
      if (!r.ok) return "bad";
      args.push(r.value);
    }
    const pid = o.cgPactId;
    return {
      kind: "capability",
      name: o.cgName,
      args,
      pactId: typeof pid === "string" ? pid : null,
    };
  }
  return null;
}

/** Decodes JSON data into a contract value (reference §3.5 decoding rules). */
export function pactValueFromJson(j: JsonValue, depth = 0): JsonDecodeResult {
  if (depth > 256) return { ok: false, error: "JSON nested too deeply" };
  if (j === null) return { ok: false, error: "null is not a contract value" };
  if (typeof j === "string") return { ok: true, value: pString(j) };
  if (typeof j === "boolean") return { ok: true, value: { kind: "bool", value: j } };
  const nt = numberText(j);
  if (nt !== null) {
    const d = decimalFromJsonNumberText(nt);
    return d === null
      ? { ok: false, error: `bad number ${nt}` }
      : { ok: true, value: { kind: "decimal", value: d } };
  }
  if (typeof j === "number") return { ok: false, error: "non-finite number" };
  if (Array.isArray(j)) {
    const items: PactValue[] = [];
    for (const x of j as JsonValue[]) {
      const r = pactValueFromJson(x, depth + 1);
      if (!r.ok) return r;
      items.push(r.value);
    }
    return { ok: true, value: { kind: "list", items } };
  }
  if (!isJsonObject(j)) return { ok: false, error: "unsupported JSON" };
  const keys = Object.keys(j);
  if (keys.length === 1) {
    const k = keys[0] as string;
    const x = j[k] as JsonValue;
    if (k === "int") {
      const t = typeof x === "string" ? x : numberText(x);
      if (t !== null && /^-?\d+$/.test(t))
        return { ok: true, value: { kind: "integer", value: BigInt(t) } };
      if (t !== null) {
        const d = decimalFromJsonNumberText(t);
        if (d !== null && d.scale === 0)
          return { ok: true, value: { kind: "integer", value: d.mantissa } };
      }
    } else if (k === "decimal" && typeof x === "string") {
      const d = decimalFromJsonNumberText(x);
      if (d !== null) return { ok: true, value: { kind: "decimal", value: d } };
    } else if ((k === "time" || k === "timep") && typeof x === "string") {
      const t = parseTime(k === "time" ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%dT%H:%M:%S%QZ", x);
      if (t !== null) return { ok: true, value: { kind: "time", micros: t } };
    }
  }
  if (keys.length === 2 && keys.includes("refSpec") && keys.includes("refName")) {
    const rn = j.refName as JsonValue;
    const spec = j.refSpec === null ? null : moduleNameList(j.refSpec as JsonValue);
    if (isJsonObject(rn) && typeof rn.name === "string" && (spec !== null || j.refSpec === null)) {
      return {
        ok: true,
        value: {
          kind: "modref",
          module: {
            namespace: typeof rn.namespace === "string" ? rn.namespace : null,
            name: rn.name,
          },
          spec,
        },
      };
    }
  }
  const g = decodeGuard(j, keys);
  if (g !== null && g !== "bad") return { ok: true, value: { kind: "guard", guard: g } };
  const entries: [string, PactValue][] = [];
  for (const k of keys) {
    const r = pactValueFromJson(j[k] as JsonValue, depth + 1);
    if (!r.ok) return r;
    entries.push([k, r.value]);
  }
  return { ok: true, value: makeObject(entries) };
}
