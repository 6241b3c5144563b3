/**
 * Time values: microseconds since 1970-01-01T00:00:00Z (UTC, no leap seconds),
 * the `format-time`/`parse-time` codes (strftime-like, with the reference's
 * `%v` microseconds and `%Q` trimmed fraction) and the default display
 * `%Y-%m-%dT%H:%M:%SZ` (reference §2.5).
 * @module
 */

const MICROS_PER_DAY = 86_400_000_000n;

export type CivilTime = {
  year: number;
  month: number; // 1..12
  day: number; // 1..31
  hour: number;
  minute: number;
  second: number;
  micro: number; // 0..999999
};

// Days from 1970-01-01 to the civil date (proleptic Gregorian, any year).
export function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function civilFromDays(z: number): { year: number; month: number; day: number } {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const y = yoe + era * 400;
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: month <= 2 ? y + 1 : y, month, day };
}

export function toCivil(micros: bigint): CivilTime {
  let days = micros / MICROS_PER_DAY;
  let rem = micros % MICROS_PER_DAY;
  if (rem < 0n) {
    rem += MICROS_PER_DAY;
    days -= 1n;
  }
  const r = Number(rem);
  const { year, month, day } = civilFromDays(Number(days));
  const secs = Math.floor(r / 1_000_000);
  return {
    year,
    month,
    day,
    hour: Math.floor(secs / 3600),
    minute: Math.floor(secs / 60) % 60,
    second: secs % 60,
    micro: r % 1_000_000,
  };
}

export function fromCivil(c: CivilTime): bigint {
  const days = BigInt(daysFromCivil(c.year, c.month, c.day));
  const secs = BigInt(c.hour * 3600 + c.minute * 60 + c.second);
  return days * MICROS_PER_DAY + secs * 1_000_000n + BigInt(c.micro);
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function pad(n: number, width: number, padChar: string): string {
  const neg = n < 0;
  const s = String(Math.abs(n));
  const p = s.length >= width ? s : padChar.repeat(width - s.length) + s;
  return neg ? `-${p}` : p;
}

function weekday(days: number): number {
  return (((days + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
}

function isoWeek(days: number): { year: number; week: number } {
  const wd = weekday(days) || 7; // Monday=1..Sunday=7
  const thursday = days - wd + 4;
  const ty = civilFromDays(thursday).year;
  const jan1 = daysFromCivil(ty, 1, 1);
  return { year: ty, week: Math.floor((thursday - jan1) / 7) + 1 };
}

/**
 * Formats a time with strftime-like codes. Supports the `-` (no padding), `_`
 * (space padding) and `0` (zero padding) modifiers.
 */
export function formatTime(fmt: string, micros: bigint): string {
  const c = toCivil(micros);
  let daysTotal = micros / MICROS_PER_DAY;
  if (micros % MICROS_PER_DAY < 0n) daysTotal -= 1n;
  const days = Number(daysTotal);
  const yday = days - daysFromCivil(c.year, 1, 1) + 1;
  let out = "";
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i] as string;
    if (ch !== "%") {
      out += ch;
      continue;
    }
    let mod: string | null = null;
    let code = fmt[++i];
    if (code === "-" || code === "_" || code === "0") {
      mod = code;
      code = fmt[++i];
    }
    if (code === undefined) {
      out += "%";
      break;
    }
    const num = (n: number, width: number, defPad: string): string =>
      mod === "-" ? String(n) : pad(n, width, mod === "_" ? " " : mod === "0" ? "0" : defPad);
    const h12 = c.hour % 12 === 0 ? 12 : c.hour % 12;
    switch (code) {
      case "%":
        out += "%";
        break;
      case "t":
        out += "\t";
        break;
      case "n":
        out += "\n";
        break;
      case "z":
        out += "+0000";
        break;
      case "N":
        out += "+00:00";
        break;
      case "Z":
        out += "UTC";
        break;
      case "c":
        out += formatTime("%a %b %e %H:%M:%S %Z %Y", micros);
        break;
      case "R":
        out += formatTime("%H:%M", micros);
        break;
      case "T":
      case "X":
        out += formatTime("%H:%M:%S", micros);
        break;
      case "r":
        out += formatTime("%I:%M:%S %p", micros);
        break;
      case "P":
        out += c.hour < 12 ? "am" : "pm";
        break;
      case "p":
        out += c.hour < 12 ? "AM" : "PM";
        break;
      case "H":
        out += num(c.hour, 2, "0");
        break;
      case "k":
        out += num(c.hour, 2, " ");
        break;
      case "I":
        out += num(h12, 2, "0");
        break;
      case "l":
        out += num(h12, 2, " ");
        break;
      case "M":
        out += num(c.minute, 2, "0");
        break;
      case "S":
        out += num(c.second, 2, "0");
        break;
      case "v":
        out += pad(c.micro, 6, "0");
        break;
      case "q":
        out += `${pad(c.micro, 6, "0")}000000`;
        break;
      case "Q": {
        const f = pad(c.micro, 6, "0").replace(/0+$/, "");
        out += f === "" ? "" : `.${f}`;
        break;
      }
      case "s": {
        const s = micros >= 0n ? micros / 1_000_000n : -((-micros + 999_999n) / 1_000_000n);
        out += s.toString();
        break;
      }
      case "D":
      case "x":
        out += formatTime("%m/%d/%y", micros);
        break;
      case "F":
        out += formatTime("%Y-%m-%d", micros);
        break;
      case "Y":
        out += mod === null ? String(c.year) : num(c.year, 4, "0");
        break;
      case "y":
        out += num(((c.year % 100) + 100) % 100, 2, "0");
        break;
      case "C":
        out +=
          mod === null ? String(Math.floor(c.year / 100)) : num(Math.floor(c.year / 100), 2, "0");
        break;
      case "B":
        out += MONTHS[c.month - 1];
        break;
      case "b":
      case "h":
        out += (MONTHS[c.month - 1] as string).slice(0, 3);
        break;
      case "m":
        out += num(c.month, 2, "0");
        break;
      case "d":
        out += num(c.day, 2, "0");
        break;
      case "e":
        out += num(c.day, 2, " ");
        break;
      case "j":
        out += num(yday, 3, "0");
        break;
      case "G":
        out += String(isoWeek(days).year);
        break;
      case "g":
        out += num(((isoWeek(days).year % 100) + 100) % 100, 2, "0");
        break;
      case "f":
        out += String(Math.floor(isoWeek(days).year / 100));
        break;
      case "V":
        out += num(isoWeek(days).week, 2, "0");
        break;
      case "u":
        out += String(weekday(days) || 7);
        break;
      case "a":
        out += (WEEKDAYS[weekday(days)] as string).slice(0, 3);
        break;
      case "A":
        out += WEEKDAYS[weekday(days)];
        break;
      case "U":
        out += num(Math.floor((yday - 1 - weekday(days) + 7) / 7), 2, "0");
        break;
      case "w":
        out += String(weekday(days));
        break;
      case "W":
        out += num(Math.floor((yday - 1 - ((weekday(days) + 6) % 7) + 7) / 7), 2, "0");
        break;
      default:
        out += `%${mod ?? ""}${code}`;
    }
  }
  return out;
}

/** The display form used by `format`, the repl and JSON `{"time":…}`. */
export function formatTimeDefault(micros: bigint): string {
  return formatTime("%Y-%m-%dT%H:%M:%SZ", micros);
}

/**
 * Parses `text` against `fmt`. Supported codes: %Y %y %C %m %d %e %j %H %k %I %l
 * %M %S %v %Q %q %p %P %b %h %B %a %A %z %N %Z %F %T %R %D %s %% and literal text.
 * Returns null when the text does not match or the date is invalid.
 */
export function parseTime(fmt: string, text: string): bigint | null {
  let pos = 0;
  let year = 1970;
  let century: number | null = null;
  let yy: number | null = null;
  let month = 1;
  let day = 1;
  let yday: number | null = null;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let micro = 0;
  let pm: boolean | null = null;
  let offsetMinutes = 0;
  let epochSeconds: bigint | null = null;

  const digits = (min: number, max: number, allowSign = false): number | null => {
    const start = pos;
    let sign = 1;
    if (allowSign && (text[pos] === "-" || text[pos] === "+")) {
      sign = text[pos] === "-" ? -1 : 1;
      pos++;
    }
    while (text[pos] === " " && pos - start < max - 1 && min > 0) pos++;
    const dStart = pos;
    while (pos - dStart < max && text[pos] !== undefined && /[0-9]/.test(text[pos] as string))
      pos++;
    if (pos - dStart < min || pos === dStart) {
      pos = start;
      return null;
    }
    return sign * Number(text.slice(dStart, pos));
  };
  const word = (names: string[]): number | null => {
    for (let k = 0; k < names.length; k++) {
      const nm = names[k] as string;
      if (text.slice(pos, pos + nm.length).toLowerCase() === nm.toLowerCase()) {
        pos += nm.length;
        return k;
      }
    }
    return null;
  };

  const expanded = fmt
    .replace(/%F/g, "%Y-%m-%d")
    .replace(/%T/g, "%H:%M:%S")
    .replace(/%R/g, "%H:%M")
    .replace(/%D/g, "%m/%d/%y");
  for (let i = 0; i < expanded.length; i++) {
    const ch = expanded[i] as string;
    if (ch !== "%") {
      if (/\s/.test(ch)) {
        while (text[pos] !== undefined && /\s/.test(text[pos] as string)) pos++;
        continue;
      }
      if (text[pos] !== ch) return null;
      pos++;
      continue;
    }
    let code = expanded[++i];
    if (code === "-" || code === "_" || code === "0") code = expanded[++i];
    let v: number | null;
    switch (code) {
      case "%":
        if (text[pos] !== "%") return null;
        pos++;
        continue;
      case "Y":
        v = digits(1, 9, true);
        if (v === null) return null;
        year = v;
        continue;
      case "y":
        v = digits(2, 2);
        if (v === null) return null;
        yy = v;
        continue;
      case "C":
        v = digits(1, 4, true);
        if (v === null) return null;
        century = v;
        continue;
      case "m":
        v = digits(1, 2);
        if (v === null) return null;
        month = v;
        continue;
      case "d":
      case "e":
        v = digits(1, 2);
        if (v === null) return null;
        day = v;
        continue;
      case "j":
        v = digits(1, 3);
        if (v === null) return null;
        yday = v;
        continue;
      case "H":
      case "k":
      case "I":
      case "l":
        v = digits(1, 2);
        if (v === null) return null;
        hour = v;
        continue;
      case "M":
        v = digits(1, 2);
        if (v === null) return null;
        minute = v;
        continue;
      case "S":
        v = digits(1, 2);
        if (v === null) return null;
        second = v;
        continue;
      case "v": {
        const s = pos;
        v = digits(1, 6);
        if (v === null) return null;
        micro = v * 10 ** (6 - (pos - s));
        continue;
      }
      case "q": {
        const s = pos;
        while (text[pos] !== undefined && /[0-9]/.test(text[pos] as string)) pos++;
        if (pos === s) return null;
        micro = Number(text.slice(s, pos).padEnd(12, "0").slice(0, 6));
        continue;
      }
      case "Q": {
        if (text[pos] !== ".") continue;
        pos++;
        const s = pos;
        while (text[pos] !== undefined && /[0-9]/.test(text[pos] as string)) pos++;
        micro = Number(text.slice(s, pos).padEnd(6, "0").slice(0, 6));
        continue;
      }
      case "p":
      case "P": {
        const w = word(["AM", "PM"]);
        if (w === null) return null;
        pm = w === 1;
        continue;
      }
      case "b":
      case "h":
      case "B": {
        const w = word([...MONTHS, ...MONTHS.map((m) => m.slice(0, 3))]);
        if (w === null) return null;
        month = (w % 12) + 1;
        continue;
      }
      case "a":
      case "A": {
        const w = word([...WEEKDAYS, ...WEEKDAYS.map((m) => m.slice(0, 3))]);
        if (w === null) return null;
        continue;
      }
      case "z":
      case "N": {
        const sign = text[pos];
        if (sign === "Z") {
          pos++;
          continue;
        }
        if (sign !== "+" && sign !== "-") return null;
        pos++;
        const hh = digits(2, 2);
        if (hh === null) return null;
        if (text[pos] === ":") pos++;
        const mm = digits(2, 2);
        if (mm === null) return null;
        offsetMinutes = (sign === "-" ? -1 : 1) * (hh * 60 + mm);
        continue;
      }
      case "Z": {
        const s = pos;
        while (text[pos] !== undefined && /[A-Za-z]/.test(text[pos] as string)) pos++;
        if (pos === s) return null;
        continue;
      }
      case "s": {
        const s = pos;
        if (text[pos] === "-") pos++;
        while (text[pos] !== undefined && /[0-9]/.test(text[pos] as string)) pos++;
        if (pos === s) return null;
        epochSeconds = BigInt(text.slice(s, pos));
        continue;
      }
      default:
        return null;
    }
  }
  if (pos !== text.length) return null;
  if (epochSeconds !== null) return epochSeconds * 1_000_000n;
  if (yy !== null) year = century !== null ? century * 100 + yy : yy < 69 ? 2000 + yy : 1900 + yy;
  else if (century !== null) year = century * 100;
  if (pm !== null) hour = (hour % 12) + (pm ? 12 : 0);
  if (hour > 23 || minute > 59 || second > 60) return null;
  let days: number;
  if (yday !== null) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    if (yday < 1 || yday > (leap ? 366 : 365)) return null;
    days = daysFromCivil(year, 1, 1) + yday - 1;
  } else {
    if (month < 1 || month > 12 || day < 1) return null;
    const back = civilFromDays(daysFromCivil(year, month, day));
    if (back.month !== month || back.day !== day) return null;
    days = daysFromCivil(year, month, day);
  }
  const secs =
    BigInt(days) * 86400n + BigInt(hour * 3600 + minute * 60 + second - offsetMinutes * 60);
  return secs * 1_000_000n + BigInt(micro);
}
