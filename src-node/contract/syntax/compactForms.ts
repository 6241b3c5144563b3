/**
 * The top-level forms of a program as compact text, the way the reference
 * renders parsed code for a gas payer's `exec-code` (chainweb's enriched
 * message data): tokens separated by one space, none just inside brackets,
 * comments and layout dropped; strings and symbols in double quotes
 * (unescaped, as the reference prints them), numbers as their value (an
 * integer without leading zeros, a decimal with the places written).
 *
 * @example
 * ```ts
 * compactForms('(coin.transfer "a"  "b" 1.0) ; pay\n{"k": [1, 2]}')
 * // ['(coin.transfer "a" "b" 1.0)', '{"k" : [1 , 2]}']
 * ```
 * @module
 */
import { decimalToPlainString } from "../values/decimal.ts";
import { type Token, tokenize } from "./lexer.ts";

function tokenText(t: Token): string {
  switch (t.kind) {
    case "integer":
      return t.value.toString();
    case "decimal":
      return decimalToPlainString(t.value);
    case "string":
    case "symbol":
      return `"${t.value}"`;
    case "bool":
      return t.value ? "true" : "false";
    case "atom":
      return t.parts.join(".");
    case "eof":
      return "";
    default:
      return t.kind;
  }
}

const OPEN = new Set(["(", "[", "{"]);
const CLOSE = new Set([")", "]", "}"]);

/**
 * The compact text of each top-level form of `source`.
 * @throws {ContractError} a SyntaxError failure for text the lexer refuses.
 */
export function compactForms(source: string): string[] {
  const forms: string[] = [];
  let depth = 0;
  let current = "";
  let prev: Token | null = null;
  for (const t of tokenize(source, "exec-code")) {
    if (t.kind === "eof") break;
    const glued =
      prev === null ||
      OPEN.has(prev.kind) ||
      CLOSE.has(t.kind) ||
      t.kind === "::" ||
      prev.kind === "::";
    current += glued ? tokenText(t) : ` ${tokenText(t)}`;
    prev = t;
    if (OPEN.has(t.kind)) depth++;
    else if (CLOSE.has(t.kind)) depth = Math.max(0, depth - 1);
    if (depth === 0) {
      forms.push(current);
      current = "";
      prev = null;
    }
  }
  if (current !== "") forms.push(current);
  return forms;
}
