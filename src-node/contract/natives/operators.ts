/**
 * Native family: arithmetic, comparison, rounding and bitwise operators
 * (reference §2.1–2.2, Pact 4 `Native/Ops.hs` semantics). Integers are exact
 * bigints with floor division; an integer mixed with a decimal is promoted to
 * a decimal; transcendental functions go through binary64 like the reference.
 * @module
 */
import type { Value } from "../eval/term.ts";
import {
  type Decimal,
  decimalAbs,
  decimalAdd,
  decimalDiv,
  decimalFromDouble,
  decimalFromInteger,
  decimalMul,
  decimalNegate,
  decimalRoundTo,
  decimalSub,
  decimalToDouble,
  decimalToIntegerRounded,
  floorDiv,
  floorMod,
  MAX_SCALE,
  type RoundingMode,
} from "../values/decimal.ts";
import { canCompareForEquality, compareOrdered, valueEquals } from "../values/equality.ts";
import { typeOfValue } from "../values/typeOf.ts";
import { mergeFields, type PactValue, pBool, pDecimal, pInteger } from "../values/value.ts";
import { type Call, type NativeDef, strict } from "./native.ts";
import { isOpaqueValue } from "./valueGuards.ts";

/** Largest integer result (in bits) a single operation may produce; bounds memory per step. */
export const MAX_INTEGER_BITS = 1_048_576;

function bitLength(n: bigint): number {
  return (n < 0n ? -n : n).toString(16).length * 4;
}

const LIMIT = 1n << BigInt(MAX_INTEGER_BITS);
const NEG_LIMIT = -LIMIT;

function tooLargeInteger(c: Call): Error {
  return c.evalError(`integer result too large (over ${MAX_INTEGER_BITS} bits)`);
}

// A value that fits 64 bits is within the limit: V8 compiles that test to machine
// integers, while comparing with the limit calls into the runtime (~10 ns an operation).
function checkSize(c: Call, n: bigint): bigint {
  if (BigInt.asIntN(64, n) === n) return n;
  if (n >= LIMIT || n <= NEG_LIMIT) throw tooLargeInteger(c);
  return n;
}

type NumPair =
  | { kind: "int"; a: bigint; b: bigint }
  | { kind: "dec"; a: Decimal; b: Decimal }
  | null;

function numPair(x: Value, y: Value): NumPair {
  if (x.kind === "integer") {
    if (y.kind === "integer") return { kind: "int", a: x.value, b: y.value };
    if (y.kind === "decimal") return { kind: "dec", a: decimalFromInteger(x.value), b: y.value };
  } else if (x.kind === "decimal") {
    if (y.kind === "decimal") return { kind: "dec", a: x.value, b: y.value };
    if (y.kind === "integer") return { kind: "dec", a: x.value, b: decimalFromInteger(y.value) };
  }
  return null;
}

function toDouble(v: Value): number | null {
  if (v.kind === "integer") return Number(v.value);
  if (v.kind === "decimal") return decimalToDouble(v.value);
  return null;
}

function fromDouble(c: Call, x: number): PactValue {
  const d = decimalFromDouble(x);
  if (d === null) throw c.evalError("Operation resulted in +- infinity or NaN");
  return pDecimal(d);
}

function binaryNumeric(
  name: string,
  sig: string,
  intOp: (c: Call, a: bigint, b: bigint) => bigint,
  decOp: (c: Call, a: Decimal, b: Decimal) => Decimal,
): NativeDef {
  return strict(name, [2, 2], sig, (c, args) => {
    const p = numPair(args[0] as Value, args[1] as Value);
    if (p === null) throw c.argsError(args);
    return p.kind === "int" ? pInteger(intOp(c, p.a, p.b)) : pDecimal(decOp(c, p.a, p.b));
  });
}

const NUM_SIG = "x:<a[integer,decimal]> y:<a[integer,decimal]> -> <a[integer,decimal]>";

const plus = strict(
  "+",
  [2, 2],
  `${NUM_SIG}, x:<a[string,[<l>],object:<{o}>]> y:<a> -> <a>`,
  (c, args) => {
    const x = args[0] as Value;
    const y = args[1] as Value;
    // The common case first, without the pair numPair allocates.
    // (The literal, not pInteger: under tsx an imported function is reached through a getter.)
    if (x.kind === "integer" && y.kind === "integer")
      return { kind: "integer", value: checkSize(c, x.value + y.value) };
    if (x.kind === "string" && y.kind === "string") {
      c.charge(Math.ceil((x.value.length + y.value.length) / 64));
      c.chargeText(x.value.length + y.value.length);
      return { kind: "string", value: x.value + y.value };
    }
    if (x.kind === "list" && y.kind === "list") {
      c.charge(Math.ceil((x.items.length + y.items.length) / 64));
      // A new array of both sides' items (1 per 2 elements: copies of references, and the GC's).
      c.chargeElements(x.items.length + y.items.length);
      c.chargeSteps(x.items.length + y.items.length);
      return { kind: "list", items: [...x.items, ...y.items] };
    }
    if (x.kind === "object" && y.kind === "object") {
      c.charge(Math.ceil((x.fields.size + y.fields.size) / 16));
      // A new object of both sides' fields, its keys sorted.
      const n = x.fields.size + y.fields.size;
      c.chargeNewElements(n);
      c.chargeSteps(n * Math.ceil(Math.log2(n + 1)));
      return { kind: "object", fields: mergeFields(x.fields, y.fields) };
    }
    const p = numPair(x, y);
    if (p === null) throw c.argsError(args);
    return p.kind === "int" ? pInteger(checkSize(c, p.a + p.b)) : pDecimal(decimalAdd(p.a, p.b));
  },
);

const minus = strict(
  "-",
  [1, 2],
  `${NUM_SIG}, x:<a[integer,decimal]> -> <a[integer,decimal]>`,
  (c, args) => {
    const x = args[0] as Value;
    if (args.length === 1) {
      if (x.kind === "integer") return pInteger(-x.value);
      if (x.kind === "decimal") return pDecimal(decimalNegate(x.value));
      throw c.argsError(args);
    }
    const p = numPair(x, args[1] as Value);
    if (p === null) throw c.argsError(args);
    return p.kind === "int" ? pInteger(checkSize(c, p.a - p.b)) : pDecimal(decimalSub(p.a, p.b));
  },
);

const times = binaryNumeric(
  "*",
  NUM_SIG,
  // Two operands within the limit give a product of at most twice the limit: compute, then check.
  (c, a, b) => {
    c.chargeIntegers(a, b);
    return checkSize(c, a * b);
  },
  (c, a, b) => {
    c.chargeIntegers(a.mantissa, b.mantissa);
    const r = decimalMul(a, b);
    checkSize(c, r.mantissa);
    return r;
  },
);

const divide = binaryNumeric(
  "/",
  NUM_SIG,
  (c, a, b) => {
    if (b === 0n) throw c.evalError("Division by 0");
    c.chargeIntegers(a, b);
    return floorDiv(a, b);
  },
  (c, a, b) => {
    if (b.mantissa === 0n) throw c.evalError("Division by 0");
    return decimalDiv(a, b);
  },
);

const pow = strict("^", [2, 2], NUM_SIG, (c, args) => {
  const x = args[0] as Value;
  const y = args[1] as Value;
  if (x.kind === "integer" && y.kind === "integer") {
    if (y.value < 0n) throw c.evalError("Integral power must be >= 0");
    const a = x.value;
    if (a === 0n || a === 1n || a === -1n || y.value === 0n) return pInteger(a ** y.value);
    if (BigInt(bitLength(a) - 4) * y.value > BigInt(MAX_INTEGER_BITS)) throw tooLargeInteger(c);
    c.charge(Math.ceil((Number(y.value) * bitLength(a)) / 4096));
    // Repeated squaring: about the cost of multiplying the result by itself.
    const resultBits = Number(y.value) * bitLength(a);
    c.chargeIntegerBits(resultBits, resultBits);
    return pInteger(checkSize(c, a ** y.value));
  }
  if (numPair(x, y) === null) throw c.argsError(args);
  return fromDouble(c, (toDouble(x) as number) ** (toDouble(y) as number));
});

const log = strict("log", [2, 2], NUM_SIG, (c, args) => {
  const x = args[0] as Value;
  const y = args[1] as Value;
  const p = numPair(x, y);
  if (p === null) throw c.argsError(args);
  const r = Math.log(toDouble(y) as number) / Math.log(toDouble(x) as number);
  if (p.kind === "int") {
    if (!Number.isFinite(r)) throw c.evalError("Operation resulted in +- infinity or NaN");
    return pInteger(BigInt(roundHalfEvenDouble(r)));
  }
  return fromDouble(c, r);
});

function roundHalfEvenDouble(x: number): number {
  const f = Math.floor(x);
  const diff = x - f;
  if (diff > 0.5) return f + 1;
  if (diff < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

function unaryDouble(name: string, f: (x: number) => number): NativeDef {
  return strict(name, [1, 1], "x:<a[integer,decimal]> -> decimal", (c, args) => {
    const d = toDouble(args[0] as Value);
    if (d === null) throw c.argsError(args);
    return fromDouble(c, f(d));
  });
}

const mod = strict("mod", [2, 2], "x:integer y:integer -> integer", (c, args) => {
  const x = args[0] as Value;
  const y = args[1] as Value;
  if (x.kind !== "integer" || y.kind !== "integer") throw c.argsError(args);
  if (y.value === 0n) throw c.evalError("Division by 0");
  return pInteger(floorMod(x.value, y.value));
});

const abs = strict("abs", [1, 1], "x:decimal -> decimal, x:integer -> integer", (c, args) => {
  const x = args[0] as Value;
  if (x.kind === "integer") return pInteger(x.value < 0n ? -x.value : x.value);
  if (x.kind === "decimal") return pDecimal(decimalAbs(x.value));
  throw c.argsError(args);
});

function rounding(name: string, mode: RoundingMode): NativeDef {
  return strict(
    name,
    [1, 2],
    "x:decimal prec:integer -> decimal, x:decimal -> integer",
    (c, args) => {
      const x = args[0] as Value;
      if (x.kind !== "decimal") throw c.argsError(args);
      if (args.length === 1) return pInteger(decimalToIntegerRounded(x.value, mode));
      const p = args[1] as Value;
      if (p.kind !== "integer") throw c.argsError(args);
      if (p.value < 0n) throw c.evalError("Negative precision not allowed");
      if (p.value > BigInt(MAX_SCALE)) throw c.evalError(`Precision must be at most ${MAX_SCALE}`);
      return pDecimal(decimalRoundTo(x.value, Number(p.value), mode));
    },
  );
}

const dec = strict("dec", [1, 1], "integer:integer -> decimal", (c, args) => {
  const x = args[0] as Value;
  if (x.kind !== "integer") throw c.argsError(args);
  return pDecimal(decimalFromInteger(x.value));
});

function comparison(name: string, test: (o: -1 | 0 | 1) => boolean): NativeDef {
  return strict(
    name,
    [2, 2],
    "x:<a[integer,decimal,string,time]> y:<a[integer,decimal,string,time]> -> bool",
    (c, args) => {
      const x = args[0] as PactValue;
      const y = args[1] as PactValue;
      if (x.kind === "string" && y.kind === "string")
        c.chargeText(Math.min(x.value.length, y.value.length));
      const o = compareOrdered(x, y);
      if (o === null) throw c.argsError(args);
      return pBool(test(o));
    },
  );
}

function equality(name: string, negate: boolean): NativeDef {
  return strict(
    name,
    [2, 2],
    "x:<a[integer,string,time,decimal,bool,[<l>],object:<{o}>,keyset,guard,module{}]> y:<a> -> bool",
    (c, args) => {
      const x = args[0] as Value;
      const y = args[1] as Value;
      if (isOpaqueValue(x) || isOpaqueValue(y)) throw c.argsError(args);
      if (!canCompareForEquality(x, y)) {
        throw c.evalError(
          `cannot compare incompatible types: ${typeOfValue(x)}, ${typeOfValue(y)}`,
        );
      }
      // Equality stops at the first difference: what it may visit is bounded by the smaller side.
      chargeSmaller(c, x, y);
      return pBool(valueEquals(x, y) !== negate);
    },
  );
}

/** Charges for comparing `x` and `y` deeply: the smaller one's size (the walk stops there). */
export function chargeSmaller(c: Call, x: PactValue, y: PactValue): void {
  if (x.kind === "string" && y.kind === "string") {
    c.chargeText(Math.min(x.value.length, y.value.length));
    return;
  }
  if (x.kind !== "list" && x.kind !== "object") return;
  if (y.kind !== "list" && y.kind !== "object") return;
  c.ip.chargeSmallerValue(x, y, c.span);
}

function bitwise(name: string, f: (a: bigint, b: bigint) => bigint): NativeDef {
  return strict(name, [2, 2], "x:integer y:integer -> integer", (c, args) => {
    const x = args[0] as Value;
    const y = args[1] as Value;
    if (x.kind !== "integer" || y.kind !== "integer") throw c.argsError(args);
    return pInteger(f(x.value, y.value));
  });
}

const complement = strict("~", [1, 1], "x:integer -> integer", (c, args) => {
  const x = args[0] as Value;
  if (x.kind !== "integer") throw c.argsError(args);
  return pInteger(~x.value);
});

const shift = strict("shift", [2, 2], "x:integer y:integer -> integer", (c, args) => {
  const x = args[0] as Value;
  const y = args[1] as Value;
  if (x.kind !== "integer" || y.kind !== "integer") throw c.argsError(args);
  if (y.value > 0n) {
    if (x.value === 0n) return x;
    if (BigInt(bitLength(x.value)) + y.value > BigInt(MAX_INTEGER_BITS + 8))
      throw tooLargeInteger(c);
    c.chargeIntegerBits(bitLength(x.value) + Number(y.value), 0);
    return pInteger(x.value << y.value);
  }
  // Right shifts sign-extend; beyond the width the result is 0 or -1.
  const s = -y.value;
  if (s > BigInt(bitLength(x.value) + 1)) return pInteger(x.value < 0n ? -1n : 0n);
  return pInteger(x.value >> s);
});

export const operatorNatives: readonly NativeDef[] = [
  plus,
  minus,
  times,
  divide,
  pow,
  log,
  mod,
  abs,
  unaryDouble("sqrt", Math.sqrt),
  unaryDouble("ln", Math.log),
  unaryDouble("exp", Math.exp),
  rounding("round", "round"),
  rounding("ceiling", "ceiling"),
  rounding("floor", "floor"),
  dec,
  comparison("<", (o) => o < 0),
  comparison("<=", (o) => o <= 0),
  comparison(">", (o) => o > 0),
  comparison(">=", (o) => o >= 0),
  equality("=", false),
  equality("!=", true),
  bitwise("&", (a, b) => a & b),
  bitwise("|", (a, b) => a | b),
  bitwise("xor", (a, b) => a ^ b),
  complement,
  shift,
];
