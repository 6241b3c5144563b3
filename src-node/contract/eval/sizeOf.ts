/**
 * The reference's size estimates of stored data (Pact 4.13 `SizeOf`: bytes a
 * value would take in GHC's memory on a 64-bit machine), which write gas is
 * charged by: a write costs ceil(size / 10) of its key and of its value
 * (`memoryCost`), each rounded up on its own. Two versions: V1 since Pact 4.5
 * and V0 under `DisablePact45` (integers sized by their base-100000 digits).
 * Infos (source positions) cost nothing, as in the reference.
 * @module
 */
import type { KeysetRecord } from "../storage/contractStorage.ts";
import type { Guard, PactValue } from "../values/value.ts";
import { codePointLength } from "../values/value.ts";

export type SizeOfVersion = 0 | 1;

/** A machine word, in bytes. */
export const WORD = 8;

/** A field of a generically sized constructor: the field and a word. */
export function fieldSize(size: number): number {
  return size + WORD;
}

/** A constructor with `fields` fields: a header word and a word per field. */
export function constructorCost(fields: number): number {
  return WORD + fields * WORD;
}

/** `Text`: six words and two bytes per character (code point). */
export function textSize(s: string): number {
  return 6 * WORD + 2 * codePointLength(s);
}

/**
 * The characters utf8-string's `length` counts in `bytes` (the reference's
 * `SizeOf ByteString` counts these, not bytes): a valid UTF-8 sequence is one
 * character; an ill-formed one is one replacement character, consuming what
 * utf8-string's `decode` consumes: a stray or unused lead byte, 1 byte; a lead
 * byte with fewer continuation bytes than it announces, itself and those
 * present; a complete sequence that is overlong (2 bytes: 1; 3 and 4 bytes:
 * all), a surrogate, U+FFFE, U+FFFF or above U+10FFFF, all of its bytes.
 */
export function utf8CharCount(bytes: Uint8Array): number {
  let n = 0;
  let i = 0;
  const len = bytes.length;
  // The continuation bytes present after `i` (at most `want`).
  const followers = (want: number): number => {
    let k = 0;
    while (k < want && i + 1 + k < len && ((bytes[i + 1 + k] as number) & 0xc0) === 0x80) k++;
    return k;
  };
  while (i < len) {
    const c = bytes[i] as number;
    let used = 1;
    if (c >= 0xc0 && c < 0xe0) {
      if (followers(1) === 1) {
        const d = ((c & 0x1f) << 6) | ((bytes[i + 1] as number) & 0x3f);
        if (d >= 0x80) used = 2;
      }
    } else if (c >= 0xe0 && c < 0xf0) {
      used = 1 + followers(2);
    } else if (c >= 0xf0 && c < 0xf8) {
      used = 1 + followers(3);
    }
    n++;
    i += used;
  }
  return n;
}

/** A `ByteString`: nine words and its characters as utf8-string counts them. */
export function byteStringSize(bytes: Uint8Array): number {
  return 9 * WORD + utf8CharCount(bytes);
}

/**
 * A public key (`PublicKeyText`), sized as the `ByteString` of its UTF-8
 * encoding: well-formed UTF-8 of a text, so its characters are the text's
 * code points.
 */
function publicKeySize(s: string): number {
  return 9 * WORD + codePointLength(s);
}

function bitLength(n: bigint): number {
  const a = n < 0n ? -n : n;
  if (a === 0n) return 0;
  if (a < 0x100000000n) return 32 - Math.clz32(Number(a));
  return a.toString(2).length;
}

/** `Integer`: V1 counts its bytes (at least 8), V0 its base-100000 digits (0 when not positive). */
export function integerSize(ver: SizeOfVersion, i: bigint): number {
  if (ver === 1) return Math.floor(Math.max(64, bitLength(i)) / 8);
  if (i <= 0n) return 0;
  return Math.ceil(Math.log(Number(i)) / Math.log(100000));
}

/** `Maybe a`. */
function maybeSize<T>(x: T | null, f: (x: T) => number): number {
  return x === null ? constructorCost(0) : constructorCost(1) + f(x);
}

/** A Haskell list `[a]`: a word, and three words per element. */
function listSize<T>(xs: readonly T[], f: (x: T) => number): number {
  let s = (1 + 3 * xs.length) * WORD;
  for (const x of xs) s += f(x);
  return s;
}

/** `ModuleName`: its name and its namespace. */
export function moduleNameSize(namespace: string | null, name: string): number {
  return constructorCost(2) + textSize(name) + maybeSize(namespace, textSize);
}

/**
 * A `Name` as the reference reads one from text: `ns.mod.fn` and `mod.fn` are
 * qualified names, anything else a bare name.
 */
function nameSize(text: string): number {
  const parts = text.split(".");
  if (parts.length === 1) return constructorCost(1) + constructorCost(2) + textSize(text);
  const fn = parts[parts.length - 1] as string;
  const mod = parts[parts.length - 2] as string;
  const ns = parts.length > 2 ? parts.slice(0, -2).join(".") : null;
  return constructorCost(1) + qualifiedNameSize(ns, mod, fn);
}

function qualifiedNameSize(ns: string | null, mod: string, fn: string): number {
  return constructorCost(3) + moduleNameSize(ns, mod) + textSize(fn);
}

/** A capability guard's name, `ns.mod.NAME` or `mod.NAME`. */
function qualifiedTextSize(text: string): number {
  const parts = text.split(".");
  const fn = parts[parts.length - 1] as string;
  const mod = parts.length > 1 ? (parts[parts.length - 2] as string) : "";
  const ns = parts.length > 2 ? parts.slice(0, -2).join(".") : null;
  return qualifiedNameSize(ns, mod, fn);
}

/** `KeySet`: the set of keys and the predicate's name. */
export function keysetSize(ver: SizeOfVersion, ks: KeysetRecord): number {
  void ver;
  const keys = new Set(ks.keys);
  let set = (1 + 3 * keys.size) * WORD;
  for (const k of keys) set += publicKeySize(k);
  return constructorCost(2) + set + nameSize(ks.pred);
}

export function guardSize(ver: SizeOfVersion, g: Guard): number {
  const values = (vs: readonly PactValue[]) => listSize(vs, (v) => pactValueSize(ver, v));
  let inner: number;
  switch (g.kind) {
    case "pact":
      inner = constructorCost(2) + textSize(g.pactId) + textSize(g.name);
      break;
    case "keyset":
      inner = keysetSize(ver, g);
      break;
    case "keysetRef":
      inner = textSize(g.namespace === null ? g.name : `${g.namespace}.${g.name}`);
      break;
    case "module":
      inner =
        constructorCost(2) + moduleNameSize(g.module.namespace, g.module.name) + textSize(g.name);
      break;
    case "user":
      inner = constructorCost(2) + nameSize(g.fun) + values(g.args);
      break;
    case "capability":
      // Three fields, sized by the reference as two.
      inner =
        constructorCost(2) +
        qualifiedTextSize(g.name) +
        values(g.args) +
        maybeSize(g.pactId, textSize);
      break;
    default: {
      const never: never = g;
      return never;
    }
  }
  return constructorCost(1) + inner;
}

/**
 * `ObjectMap PactValue`, sized as the `Map` it wraps (newtype deriving): six
 * words per entry, its keys and values.
 */
export function objectMapSize(ver: SizeOfVersion, fields: ReadonlyMap<string, PactValue>): number {
  let s = 6 * fields.size * WORD;
  for (const [k, v] of fields) s += textSize(k) + pactValueSize(ver, v);
  return s;
}

/** `PactValue`. */
export function pactValueSize(ver: SizeOfVersion, v: PactValue): number {
  const c1 = constructorCost(1);
  switch (v.kind) {
    case "string":
      return c1 + c1 + textSize(v.value);
    case "integer":
      return c1 + c1 + integerSize(ver, v.value);
    case "decimal":
      // `Decimal Word8 Integer`.
      return c1 + c1 + constructorCost(2) + 2 * WORD + integerSize(ver, v.value.mantissa);
    case "bool":
      return c1 + c1;
    case "time":
      // `UTCTime`: a constructor around an Int64 of microseconds.
      return c1 + c1 + c1 + 2 * WORD;
    case "list": {
      // A `Vector`: seven words, a word per element.
      let s = (7 + v.items.length) * WORD;
      for (const x of v.items) s += pactValueSize(ver, x);
      return c1 + s;
    }
    case "object":
      return c1 + objectMapSize(ver, v.fields);
    case "guard":
      return c1 + guardSize(ver, v.guard);
    case "modref":
      // `ModRef`: name and implemented interfaces (its info is free).
      return (
        c1 +
        c1 +
        moduleNameSize(v.module.namespace, v.module.name) +
        maybeSize(v.spec, (s) => listSize(s, (i) => qualifiedModuleSize(i)))
      );
    default: {
      const never: never = v;
      return never;
    }
  }
}

/** A module name written `ns.mod` or `mod`. */
function qualifiedModuleSize(text: string): number {
  const dot = text.lastIndexOf(".");
  return dot > 0
    ? moduleNameSize(text.slice(0, dot), text.slice(dot + 1))
    : moduleNameSize(null, text);
}

/** `Namespace PactValue`: its name and two guards. */
export function namespaceSize(
  ver: SizeOfVersion,
  name: string,
  user: PactValue,
  admin: PactValue,
): number {
  const g = (v: PactValue) =>
    v.kind === "guard" ? guardSize(ver, v.guard) : pactValueSize(ver, v);
  return constructorCost(3) + textSize(name) + g(user) + g(admin);
}

/** The reference's `memoryCost` at one gas per byte: ceil(size / 10). */
export function memoryGas(size: number): number {
  return Math.ceil(size / 10);
}
