/**
 * Native family: strings and data — `format` (rendering per reference §2.12),
 * `concat`, `str-to-list`, `str-to-int`, `int-to-str`, `is-charset`,
 * `base64-encode`, `base64-decode`, `hash` (Blake2b-256 of the UTF-8 text of a
 * string, else of the legacy-ordered compact JSON, §3.6) and `typeof`; and the
 * constants `CHARSET_ASCII`, `CHARSET_LATIN1`.
 * @module
 */

import { blake2b256 } from "../../crypto/blake2.ts";
import { base64UrlEncode } from "../../encoding/base64url.ts";
import type { Result } from "../../errors/result.ts";
import {
  bigintBits,
  GAS_TEXT_CHARS_PER_UNIT,
  MAX_VALUE_LENGTH,
  NODE_SIZE,
  scalarSize,
} from "../eval/gasTable.ts";
import type { Value } from "../eval/term.ts";
import { typeNameOf } from "../eval/typeSpec.ts";
import { pow10 } from "../values/decimal.ts";
import { pactValueToJsonText } from "../values/json.ts";
import { renderValue, showValue } from "../values/render.ts";
import { typeOfValue } from "../values/typeOf.ts";
import {
  codePointLength,
  codePoints,
  type PactValue,
  pBool,
  pInteger,
  pString,
} from "../values/value.ts";
import { type NativeDef, strict } from "./native.ts";
import { isOpaqueValue } from "./valueGuards.ts";

/** Native constants: names that evaluate to a value. */
export const nativeConstants: ReadonlyMap<string, PactValue> = new Map([
  ["CHARSET_ASCII", pInteger(0n)],
  ["CHARSET_LATIN1", pInteger(1n)],
]);

/** 10^0 … 10^16, exact as numbers. */
const POWERS_OF_TEN: readonly number[] = Array.from({ length: 17 }, (_, i) => 10 ** i);

/** floor(log10 |n|) (0 for 0), without rendering the number. */
function decimalDigitsLessOne(n: bigint): number {
  // A safe integer through a double: one conversion, no bigint comparisons (format pays
  // this per argument); Number() of a larger one lands outside the range, never inside.
  const x = Number(n);
  if (x >= -9007199254740991 && x <= 9007199254740991) {
    const a = x < 0 ? -x : x;
    if (a < 10) return 0;
    // Compared with exact powers of ten (no division per digit).
    let d = 1;
    while (d < 15 && a >= (POWERS_OF_TEN[d + 1] as number)) d++;
    return d;
  }
  const a = n < 0n ? -n : n;
  let d = Math.floor((bigintBits(a) - 1) * Math.LOG10E * Math.LN2);
  while (d > 0 && a < pow10(d)) d--;
  while (a >= pow10(d + 1)) d++;
  return d;
}

/** A name's length without its dots (the reference counts the parts). */
function nameEstimate(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) !== 0x2e) n++;
  return n;
}

/** Each item's estimate plus one. */
function listEstimate(vs: readonly PactValue[]): number {
  let n = 0;
  for (const x of vs) n += 1 + formatEstimate(x);
  return n;
}

/** The reference's estimate of a value's formatted length (`ToPactStringGas`). */
// Module-level helpers, no closures: tsx names every closure it creates (a defineProperty
// per call), which cost format three times its speed.
function formatEstimate(v: PactValue): number {
  const digits = decimalDigitsLessOne;
  const name = nameEstimate;
  const list = listEstimate;
  switch (v.kind) {
    case "string":
      return codePointLength(v.value);
    case "integer":
      return digits(v.value);
    case "decimal":
      return digits(v.value.mantissa);
    case "bool":
      return 5;
    case "time":
      return 100;
    case "list":
      return list(v.items);
    case "object": {
      let n = v.fields.size;
      for (const [k, x] of v.fields) n += codePointLength(k) + formatEstimate(x);
      return n;
    }
    case "modref":
      return v.module.name.length + (v.module.namespace?.length ?? 0);
    case "guard": {
      const g = v.guard;
      switch (g.kind) {
        case "keyset":
          return g.keys.reduce((a, k) => a + 1 + k.length, 0) + name(g.pred);
        case "keysetRef":
          return g.name.length + (g.namespace?.length ?? 0);
        case "module":
          return g.module.name.length + (g.module.namespace?.length ?? 0) + g.name.length;
        case "user":
          return name(g.fun) + list(g.args);
        case "capability":
          return name(g.name) + list(g.args) + (g.pactId?.length ?? 0);
        case "pact":
          return g.pactId.length + g.name.length;
        default: {
          const never: never = g;
          return never;
        }
      }
    }
    default: {
      const never: never = v;
      return never;
    }
  }
}

/**
 * An upper bound of a scalar's {@link valueSize} given its estimate `est`
 * ({@link formatEstimate}): a number under 10^15 (est < 15) has at most 50
 * bits, 24 of size (a decimal 25), so only larger ones are measured.
 */
function scalarSizeBound(x: PactValue, est: number): number {
  switch (x.kind) {
    case "string":
      return NODE_SIZE + x.value.length;
    case "integer":
      return est < 15 ? NODE_SIZE + 16 : scalarSize(x);
    case "decimal":
      return est < 15 ? NODE_SIZE + 17 : scalarSize(x);
    default:
      return scalarSize(x);
  }
}

/**
 * `format`'s charge and memory bound in one pass over its arguments, for the
 * usual shape (scalars, and lists or objects of scalars): the reference's
 * estimate ({@link listEstimate}), when an upper bound of the arguments'
 * {@link valueSize} (the list included) stays within `cap`. Else -1: a deeper
 * argument, a guard, or a bound past `cap`; the caller then measures exactly
 * as before ({@link Interpreter.boundValueSize}, then {@link listEstimate}),
 * so the bound fails and the charge comes out exactly as they always did.
 */
function shallowEstimate(items: readonly PactValue[], cap: number): number {
  let size = NODE_SIZE;
  let est = items.length;
  for (const x of items) {
    if (x.kind === "list") {
      size += NODE_SIZE;
      est += x.items.length;
      for (const y of x.items) {
        if (y.kind === "list" || y.kind === "object" || y.kind === "guard") return -1;
        const e = formatEstimate(y);
        est += e;
        size += scalarSizeBound(y, e);
        if (size > cap) return -1;
      }
    } else if (x.kind === "object") {
      size += NODE_SIZE;
      est += x.fields.size;
      for (const [k, y] of x.fields) {
        if (y.kind === "list" || y.kind === "object" || y.kind === "guard") return -1;
        const e = formatEstimate(y);
        est += codePointLength(k) + e;
        size += k.length + scalarSizeBound(y, e);
        if (size > cap) return -1;
      }
    } else if (x.kind === "guard") return -1;
    else {
      const e = formatEstimate(x);
      est += e;
      size += scalarSizeBound(x, e);
    }
    if (size > cap) return -1;
  }
  return est;
}

/** The code points of every value rendered as `format` renders it (the pre-4.8 charge). */
function renderedLength(vs: readonly PactValue[]): number {
  let n = 0;
  for (const v of vs) n += codePointLength(renderValue(v, true));
  return n;
}

/**
 * The last template `format` split, its pieces and its length in code points:
 * a template is mostly a literal, the same string on every call of a loop.
 */
let lastTemplate: string | null = null;
let lastParts: readonly string[] = [];
let lastTemplateLength = 0;

const format = strict("format", [2, 2], "template:string vars:list -> string", (c, args) => {
  const t = args[0] as Value;
  const vars = args[1] as Value;
  if (t.kind !== "string" || vars.kind !== "list") throw c.argsError(args);
  // Rendering the arguments is bounded before any text is built; the usual shape is
  // measured for the bound and the charge in one pass.
  let estimate = shallowEstimate(vars.items, c.ip.boundValueCap(GAS_TEXT_CHARS_PER_UNIT));
  if (estimate < 0) c.ip.boundValueSize(vars, GAS_TEXT_CHARS_PER_UNIT, c.span);
  if (t.value !== lastTemplate) {
    lastParts = t.value.split("{}");
    lastTemplateLength = codePointLength(t.value);
    lastTemplate = t.value;
  }
  const parts = lastParts;
  if (parts.length === 1) return t;
  if (parts.length - 1 > vars.items.length)
    throw c.evalError("format: not enough arguments for template");
  // The reference's charge: before Pact 4.8 the lengths of the template and the rendered
  // arguments (none before 4.4); since, a tenth of its estimate of the output's length.
  const flags = c.ctx.execFlags;
  const tlen = lastTemplateLength;
  const legacy = flags.size > 0 && flags.has("DisablePact48");
  if (legacy) {
    if (!flags.has("DisablePact44")) c.ip.chargeGas(tlen + renderedLength(vars.items), c.span);
  } else {
    if (estimate < 0) estimate = listEstimate(vars.items);
    c.ip.chargeGas(Math.floor((tlen + estimate) / 10), c.span);
  }
  let out = parts[0] as string;
  for (let i = 1; i < parts.length; i++) {
    out += renderValue(vars.items[i - 1] as PactValue, true) + (parts[i] as string);
    if (out.length > 10_000_000) throw c.evalError("format: result too large");
  }
  c.charge(Math.ceil(out.length / 64));
  return pString(out);
});

const concat = strict("concat", [1, 1], "str-list:[string] -> string", (c, args) => {
  const l = args[0] as Value;
  if (l.kind !== "list") throw c.argsError(args);
  let out = "";
  for (const x of l.items) {
    if (x.kind !== "string")
      throw c.evalError(
        c.offChain()
          ? `concat: expecting list of strings: ${showValue(x)}`
          : `concat: expected list of strings, received value of type: ${typeOfValue(x)}`,
      );
    out += x.value;
    if (out.length > MAX_VALUE_LENGTH) c.chargeText(out.length);
  }
  c.charge(Math.ceil(out.length / 64));
  c.chargeElements(l.items.length);
  c.chargeText(out.length);
  return pString(out);
});

const strToList = strict("str-to-list", [1, 1], "str:string -> [string]", (c, args) => {
  const s = args[0] as Value;
  if (s.kind !== "string") throw c.argsError(args);
  c.charge(Math.ceil(s.value.length / 8));
  c.chargeNewElements(s.value.length);
  return { kind: "list", items: codePoints(s.value).map(pString) };
});

const DIGITS = "0123456789abcdef";

/** Big-endian bytes of a non-negative integer (0 → one zero byte). */
function integerBytes(n: bigint): Uint8Array {
  let hex = n.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  return Uint8Array.from(Buffer.from(hex, "hex"));
}

const intToStr = strict("int-to-str", [2, 2], "base:integer val:integer -> string", (c, args) => {
  const b = args[0] as Value;
  const v = args[1] as Value;
  if (b.kind !== "integer" || v.kind !== "integer") throw c.argsError(args);
  if (b.value >= 2n && b.value <= 16n) {
    // A step per 64 hex digits: one for any 64-bit value (no text built to count them).
    c.charge(
      BigInt.asIntN(64, v.value) === v.value ? 1 : Math.ceil(v.value.toString(16).length / 64),
    );
    c.chargeIntegers(v.value, v.value);
    return pString(v.value.toString(Number(b.value)));
  }
  if (b.value === 64n) {
    if (v.value < 0n) throw c.evalError("Only positive values allowed for base64URL conversion.");
    c.chargeText(Math.ceil(bigintBits(v.value) / 4));
    return pString(base64UrlEncode(integerBytes(v.value)));
  }
  throw c.evalError("Invalid base, must be 2-16 or 64");
});

/**
 * Decodes base64url the reference's way (Pact 4.9+): the text is padded with
 * `=` to a multiple of 4 and decoded strictly, so unpadded and correctly
 * padded text are accepted and non-canonical trailing bits are refused. Null
 * when the text does not decode.
 */
function decodeBase64Url(text: string): Buffer | null {
  const m = /^([A-Za-z0-9_-]*)(={0,2})$/.exec(text);
  if (m === null) return null;
  const body = m[1] as string;
  const given = (m[2] as string).length;
  if (body.length % 4 === 1 || given > (4 - (body.length % 4)) % 4) return null;
  const bytes = Buffer.from(body, "base64url");
  return bytes.toString("base64url") === body ? bytes : null;
}

const B64URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * Decodes base64url as the reference did before Pact 4.9 (`DisablePact49`),
 * with its error texts: the UTF-8 bytes are padded with `=` to a multiple of
 * 4 and read quad by quad; a misplaced `=` is a padding error and any other
 * stray byte an encoding error, each reported at the start of its quad (one
 * less when the text itself ends in `===`); non-canonical trailing bits are
 * accepted.
 */
function decodeBase64UrlLegacy(text: string): Result<Buffer> {
  const raw = Buffer.from(text, "utf8");
  const padded = Buffer.concat([raw, Buffer.alloc((4 - (raw.length % 4)) % 4, 0x3d)]);
  const adjust = text.endsWith("===") ? -1 : 0;
  const fail = (what: string, at: number): Result<Buffer> => ({
    ok: false,
    error: `Base64URL decode failed: ${what} near offset ${at - (at % 4) + adjust}`,
  });
  const isPad = (b: number | undefined): boolean => b === 0x3d;
  const valid = (b: number | undefined): boolean =>
    b !== undefined && B64URL_ALPHABET.includes(String.fromCharCode(b));
  for (let q = 0; q < padded.length; q += 4) {
    const quad = [padded[q], padded[q + 1], padded[q + 2], padded[q + 3]];
    const final = q + 4 >= padded.length;
    // Padding may only end the final quad, in its last one or two places.
    const padLimit = final ? 2 : 4;
    for (let k = 0; k < padLimit; k++) if (isPad(quad[k])) return fail("invalid padding", q + k);
    for (let k = 0; k < 4; k++)
      if (!valid(quad[k]) && !(final && k >= 2 && isPad(quad[k])))
        return fail("invalid base64 encoding", q + k);
    if (final && isPad(quad[2]) && !isPad(quad[3])) return fail("invalid padding", q + 3);
  }
  const body = padded.toString("latin1").replace(/=+$/, "");
  return { ok: true, value: Buffer.from(body, "base64url") };
}

/** The reference's one message for every base64 failure (Pact 4.9+). */
const BASE64_FAILURE = "Could not base64-decode string";

const strToInt = strict(
  "str-to-int",
  [1, 2],
  "str-val:string -> integer, base:integer str-val:string -> integer",
  (c, args) => {
    const b = args.length === 2 ? (args[0] as Value) : pInteger(10n);
    const s = args[args.length - 1] as Value;
    if (b.kind !== "integer" || s.kind !== "string") throw c.argsError(args);
    const text = s.value;
    if (codePointLength(text) > 512)
      throw c.evalError("Invalid input, only up to 512 length supported");
    if (b.value === 64n) {
      const bytes = decodeBase64Url(text);
      if (bytes === null) throw c.evalError(BASE64_FAILURE);
      return pInteger(bytes.length === 0 ? 0n : BigInt(`0x${bytes.toString("hex")}`));
    }
    if (b.value < 2n || b.value > 16n)
      throw c.evalError("Base value must be >= 2 and <= 16, or 64");
    if (text.length === 0) throw c.evalError("empty text: ");
    const base = Number(b.value);
    let n = 0n;
    const bb = BigInt(base);
    for (const ch of text) {
      // Characters that are no hex digit at all (a Haskell `error` in the
      // reference) get the same message as digits too large for the base.
      const d = DIGITS.indexOf(ch.toLowerCase());
      if (d < 0 || d >= base)
        throw c.evalError(`character '${ch}' is out of range for base ${base}: ${text}`);
      n = n * bb + BigInt(d);
    }
    return pInteger(n);
  },
);

const isCharset = strict(
  "is-charset",
  [2, 2],
  "charset:integer input:string -> bool",
  (c, args) => {
    const cs = args[0] as Value;
    const s = args[1] as Value;
    if (cs.kind !== "integer" || s.kind !== "string") throw c.argsError(args);
    const limit = cs.value === 0n ? 0x7f : cs.value === 1n ? 0xff : -1;
    if (limit < 0) throw c.evalError(`Unsupported character set: ${cs.value}`);
    c.chargeText(s.value.length);
    for (let i = 0; i < s.value.length; i++) if (s.value.charCodeAt(i) > limit) return pBool(false);
    return pBool(true);
  },
);

const base64Encode = strict("base64-encode", [1, 1], "string:string -> string", (c, args) => {
  const s = args[0] as Value;
  if (s.kind !== "string") throw c.argsError(args);
  c.charge(Math.ceil(s.value.length / 64));
  c.chargeText(s.value.length * 2);
  return pString(Buffer.from(s.value, "utf8").toString("base64url"));
});

const base64Decode = strict("base64-decode", [1, 1], "string:string -> string", (c, args) => {
  const s = args[0] as Value;
  if (s.kind !== "string") throw c.argsError(args);
  const text = s.value;
  c.charge(Math.ceil(text.length / 64));
  c.chargeText(text.length * 2);
  let bytes: Buffer | null;
  if (c.ctx.execFlags.has("DisablePact49")) {
    const r = decodeBase64UrlLegacy(text);
    if (!r.ok) throw c.evalError(`Could not decode string: ${r.error}`);
    bytes = r.value;
  } else {
    bytes = decodeBase64Url(text);
    if (bytes === null) throw c.evalError(`Could not decode string: ${BASE64_FAILURE}`);
  }
  const decoded = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  if (Buffer.from(decoded, "utf8").compare(bytes) !== 0)
    throw c.evalError("Could not decode string: Base64URL decode failed: invalid unicode");
  return pString(decoded);
});

/** The contract-language `hash` of a value. */
export function hashValue(v: PactValue): string {
  const text = v.kind === "string" ? v.value : pactValueToJsonText(v);
  return base64UrlEncode(blake2b256(text));
}

const hash = strict("hash", [1, 1], "value:<a> -> string", (c, args) => {
  const v = args[0] as Value;
  if (isOpaqueValue(v)) throw c.argsError(args);
  c.charge(1);
  // Hashing reads the whole text (or JSON) of the value: by its size.
  // Twice the text rate: UTF-8 encoding, then Blake2b over every byte.
  if (v.kind === "string") c.chargeText(v.value.length * 2);
  else c.chargeText(c.chargeValues(v) * 3);
  return pString(hashValue(v));
});

const typeOf = strict("typeof", [1, 1], "x:<a> -> string", (_c, args) => {
  const v = args[0] as Value;
  return pString(
    isOpaqueValue(v)
      ? v.kind === "table" || v.kind === "schema"
        ? typeNameOf(v)
        : "function"
      : typeOfValue(v),
  );
});

export const stringNatives: readonly NativeDef[] = [
  format,
  concat,
  strToList,
  intToStr,
  strToInt,
  isCharset,
  base64Encode,
  base64Decode,
  hash,
  typeOf,
];
