/**
 * The modules and interfaces a command's code deploys, by qualified name:
 * its top-level `(module name …)` and `(interface name …)` forms, in the
 * namespace the `(namespace …)` forms before them select (as the evaluator
 * installs them). Only code that mentions `module` or `interface` is
 * parsed; code that does not parse deploys nothing.
 * @module
 */

import { parseProgram } from "../contract/syntax/parser.ts";
import type { ParseNode } from "../contract/syntax/parseTree.ts";

const MENTIONS_DEPLOY = /\((?:\s*)(?:module|interface)\s/;

function head(node: ParseNode): string | undefined {
  if (node.kind !== "sexp") return undefined;
  const first = node.items[0];
  return first?.kind === "atom" && first.parts.length === 1 ? first.parts[0] : undefined;
}

/** Qualified names of the modules and interfaces `code` deploys, in order. */
export function deployedModules(code: string): string[] {
  if (!MENTIONS_DEPLOY.test(code)) return [];
  let forms: ParseNode[];
  try {
    forms = parseProgram(code, "index");
  } catch {
    return [];
  }
  const out: string[] = [];
  let namespace: string | null = null;
  for (const form of forms) {
    if (form.kind !== "sexp") continue;
    const h = head(form);
    const arg = form.items[1];
    if (h === "namespace") {
      if (arg?.kind === "string" || arg?.kind === "symbol") namespace = arg.value;
    } else if ((h === "module" || h === "interface") && arg?.kind === "atom") {
      const name = arg.parts.join(".");
      out.push(namespace === null || arg.parts.length > 1 ? name : `${namespace}.${name}`);
    }
  }
  return out;
}
