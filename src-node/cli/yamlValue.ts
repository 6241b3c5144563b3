/**
 * YAML (and JSON, its subset) text to plain values, for request files, key
 * files and detached transactions. Two things differ from `yaml`'s own
 * conversion: numbers become exact {@link JsonNumber}s (so `1.0` stays `1.0`
 * in data and capability arguments), and plain scalars keep their source
 * text, so a hex key or a nonce that happens to look like a number (`0123e4…`)
 * is read as written wherever a string is expected. And a number written with
 * a comma (`1,500`, `1,5`) is refused rather than read as text, or, inside
 * `[…]` or `{…}`, as two values (`1` and `500`): amounts are digits and a
 * decimal point only, the same rule as the app's amount fields (docs/cli.md).
 * @module
 */
import { isAlias, isMap, isScalar, isSeq, parseDocument, Scalar } from "yaml";
import { JsonNumber } from "../command/exactJson.ts";
import { cliError } from "./errors.ts";

/** A value read from YAML: JSON values with exact numbers. */
export type YamlValue =
  | null
  | boolean
  | string
  | JsonNumber
  | readonly YamlValue[]
  | { readonly [key: string]: YamlValue };

const sources = new WeakMap<JsonNumber, string>();

/** The text a number was written as in the file (`0x1F`, `007`, `1e3`), when known. */
export function sourceOf(n: JsonNumber): string {
  return sources.get(n) ?? n.text;
}

const DECIMAL = /^(-?)([0-9]*)(?:(\.)([0-9]*))?([eE][-+]?[0-9]+)?$/;

/** JSON number text for a YAML number's source, or undefined for `.inf`/`.nan`. */
function jsonNumberText(source: string): string | undefined {
  const text = source.startsWith("+") ? source.slice(1) : source;
  if (/^-?0[xo]/i.test(text)) {
    const negative = text.startsWith("-");
    const digits = negative ? text.slice(1) : text;
    const value = BigInt(digits.replace(/^0o/i, "0o"));
    return (negative ? -value : value).toString();
  }
  const m = DECIMAL.exec(text);
  if (m === null) return undefined;
  const [, sign = "", whole = "", point = "", fraction = "", exponent = ""] = m;
  if (whole === "" && fraction === "") return undefined;
  const w = whole.replace(/^0+(?=[0-9])/, "") || "0";
  const f = point === "" ? "" : `.${fraction === "" ? "0" : fraction}`;
  return `${sign}${w}${f}${exponent}`;
}

/** Digits with a comma among them, as a plain scalar: a number someone grouped or wrote with a decimal comma. */
const COMMA_NUMBER = /^[-+]?[0-9][0-9,]*,[0-9,]*(?:\.[0-9]*)?$/;

function commaNumber(file: string, path: string, written: string): Error {
  return cliError(
    "CLI_BAD_FIELD",
    file,
    path,
    `'${written}' has a comma: numbers here are digits and a decimal point only (write ${written.replaceAll(",", "")}, or 1.5 for one and a half); quote it if you mean text`,
  );
}

function scalarValue(node: Scalar, file: string, path: string, yaml: string): YamlValue {
  const v: unknown = node.value;
  const plain = node.type === Scalar.PLAIN && typeof node.source === "string";
  if (typeof v === "string" && plain && COMMA_NUMBER.test(v)) throw commaNumber(file, path, v);
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "bigint") {
    // Inside […] or {…} a comma ends a value: "1,500" would be two, 1 and 500.
    const end = node.range?.[1];
    if (plain && end !== undefined && yaml[end] === "," && /[0-9]/.test(yaml[end + 1] ?? "")) {
      const rest = /^[0-9,.]*/.exec(yaml.slice(end))?.[0] ?? "";
      throw commaNumber(file, path, `${node.source}${rest}`);
    }
    const source =
      node.type === Scalar.PLAIN && typeof node.source === "string" ? node.source : String(v);
    const text = jsonNumberText(source);
    const n = text === undefined ? undefined : JsonNumber.of(text);
    if (n === undefined) {
      throw cliError("CLI_BAD_FIELD", file, path, `'${source}' is not a finite JSON number`);
    }
    sources.set(n, source);
    return n;
  }
  throw cliError("CLI_BAD_FIELD", file, path, "unsupported YAML value (tags are not supported)");
}

function keyText(node: unknown, file: string, path: string): string {
  if (isScalar(node)) {
    // A plain key is read as written: hex keys must never turn into numbers.
    if (node.type === Scalar.PLAIN && typeof node.source === "string") return node.source;
    if (typeof node.value === "string") return node.value;
    return String(node.value);
  }
  throw cliError("CLI_BAD_FIELD", file, path, "map keys must be plain text");
}

type ParsedDoc = ReturnType<typeof parseDocument>;

function convert(
  node: unknown,
  file: string,
  path: string,
  doc: ParsedDoc,
  text: string,
): YamlValue {
  if (node === null || node === undefined) return null;
  if (isAlias(node)) return convert(node.resolve(doc), file, path, doc, text);
  if (isScalar(node)) return scalarValue(node, file, path, text);
  if (isSeq(node)) {
    return node.items.map((item, i) => convert(item, file, `${path}[${i}]`, doc, text));
  }
  if (isMap(node)) {
    const out: Record<string, YamlValue> = {};
    for (const pair of node.items) {
      const key = keyText(pair.key, file, path);
      const child = path === "" ? key : `${path}.${key}`;
      // defineProperty: a key such as "__proto__" is data, never a prototype.
      Object.defineProperty(out, key, {
        value: convert(pair.value, file, child, doc, text),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  throw cliError("CLI_BAD_FIELD", file, path, "unsupported YAML node");
}

/**
 * Parses YAML or JSON text.
 * @param file names the source in errors (a path, or `<stdin>`).
 * @param kind what the text should be, for the message (`JSON` for data files).
 * @throws {CliError} CLI_BAD_YAML with the line and column of the first
 *   problem; CLI_BAD_FIELD for a number that is not finite (`.inf`) or a tag.
 */
export function parseYamlText(text: string, file: string, kind = "YAML"): YamlValue {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem !== undefined) {
    const pos = problem.linePos?.[0];
    const where = pos === undefined ? "" : `line ${pos.line}, column ${pos.col}: `;
    const first = (problem.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
    throw cliError("CLI_BAD_YAML", file, "", `${where}not valid ${kind}: ${first}`);
  }
  return convert(doc.contents, file, "", doc, text);
}
