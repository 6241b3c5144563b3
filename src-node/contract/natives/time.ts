/**
 * Native family: time — `time`, `parse-time`, `format-time`, `add-time`,
 * `diff-time`, `days`, `hours`, `minutes` (reference §2.5). Seconds given as a
 * decimal become microseconds rounded half-even; `diff-time` and the duration
 * natives return decimal seconds.
 * @module
 */
import type { Value } from "../eval/term.ts";
import {
  type Decimal,
  decimalFromInteger,
  decimalFromRational,
  decimalMul,
  divRoundHalfEven,
  pow10,
} from "../values/decimal.ts";
import { formatTime, parseTime } from "../values/time.ts";
import { pDecimal, pString, pTime } from "../values/value.ts";
import { type NativeDef, strict } from "./native.ts";

/** The one format `time` accepts and times display with. */
export const ISO_FORMAT = "%Y-%m-%dT%H:%M:%SZ";

/** Times must stay within years 0..9999 would be too strict; this bounds the range instead. */
const MAX_MICROS = 10n ** 20n;

const time = strict("time", [1, 1], "utcval:string -> time", (c, args) => {
  const s = args[0] as Value;
  if (s.kind !== "string") throw c.argsError(args);
  c.chargeText(s.value.length);
  const t = parseTime(ISO_FORMAT, s.value);
  if (t === null) throw c.evalError(`Invalid time, expecting '${ISO_FORMAT}': ${s.value}`);
  return pTime(t);
});

const parseTimeNative = strict(
  "parse-time",
  [2, 2],
  "format:string utcval:string -> time",
  (c, args) => {
    const f = args[0] as Value;
    const s = args[1] as Value;
    if (f.kind !== "string" || s.kind !== "string") throw c.argsError(args);
    c.chargeText(f.value.length + s.value.length);
    const t = parseTime(f.value, s.value);
    if (t === null) throw c.evalError(`Failed to parse time '${s.value}' with format: ${f.value}`);
    return pTime(t);
  },
);

const formatTimeNative = strict(
  "format-time",
  [2, 2],
  "format:string time:time -> string",
  (c, args) => {
    const f = args[0] as Value;
    const t = args[1] as Value;
    if (f.kind !== "string" || t.kind !== "time") throw c.argsError(args);
    c.charge(Math.ceil(f.value.length / 16));
    // The format bounds the output (a directive expands to a few dozen characters at most).
    c.chargeText(f.value.length);
    const out = formatTime(f.value, t.micros);
    c.chargeText(out.length);
    return pString(out);
  },
);

function secondsToMicros(d: Decimal): bigint {
  return divRoundHalfEven(d.mantissa * 1_000_000n, pow10(d.scale));
}

const addTime = strict(
  "add-time",
  [2, 2],
  "time:time seconds:decimal -> time, time:time seconds:integer -> time",
  (c, args) => {
    const t = args[0] as Value;
    const s = args[1] as Value;
    if (t.kind !== "time") throw c.argsError(args);
    let delta: bigint;
    if (s.kind === "integer") delta = s.value * 1_000_000n;
    else if (s.kind === "decimal") delta = secondsToMicros(s.value);
    else throw c.argsError(args);
    const r = t.micros + delta;
    if (r > MAX_MICROS || r < -MAX_MICROS) throw c.evalError("add-time: time out of range");
    return pTime(r);
  },
);

const diffTime = strict("diff-time", [2, 2], "time1:time time2:time -> decimal", (c, args) => {
  const a = args[0] as Value;
  const b = args[1] as Value;
  if (a.kind !== "time" || b.kind !== "time") throw c.argsError(args);
  return pDecimal(decimalFromRational(a.micros - b.micros, 1_000_000n));
});

function duration(name: string, seconds: bigint): NativeDef {
  const m = decimalFromInteger(seconds);
  return strict(name, [1, 1], "n:decimal -> decimal, n:integer -> decimal", (c, args) => {
    const n = args[0] as Value;
    if (n.kind === "integer") return pDecimal(decimalMul(decimalFromInteger(n.value), m));
    if (n.kind === "decimal") return pDecimal(decimalMul(n.value, m));
    throw c.argsError(args);
  });
}

export const timeNatives: readonly NativeDef[] = [
  time,
  parseTimeNative,
  formatTimeNative,
  addTime,
  diffTime,
  duration("days", 86400n),
  duration("hours", 3600n),
  duration("minutes", 60n),
];
