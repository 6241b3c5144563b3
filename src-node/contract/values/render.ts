/**
 * The printed ("compact pretty") form of values (reference §2.12), used by
 * `format`, error messages, `expect` reports and the repl.
 * @module
 */
import { decimalToString } from "./decimal.ts";
import { formatTimeDefault } from "./time.ts";
import type { Guard, PactValue } from "./value.ts";

function renderGuard(g: Guard): string {
  switch (g.kind) {
    case "keyset":
      return `KeySet {keys: [${g.keys.join(", ")}],pred: ${g.pred}}`;
    case "keysetRef":
      return `'${g.namespace === null ? "" : `${g.namespace}.`}${g.name}`;
    case "user":
      return `UserGuard {fun: ${g.fun},args: [${g.args.map((a) => renderValue(a, false)).join(", ")}]}`;
    case "module":
      return `ModuleGuard {module: ${g.module.namespace === null ? "" : `${g.module.namespace}.`}${g.module.name},name: ${g.name}}`;
    case "pact":
      return `PactGuard {pactId: ${g.pactId},name: ${g.name}}`;
    case "capability":
      return `CapabilityGuard {name: ${g.name},args: [${g.args.map((a) => renderValue(a, false)).join(", ")}],pactId: ${g.pactId ?? ""}}`;
    default: {
      const never: never = g;
      return never;
    }
  }
}

/**
 * Renders a value. At the top level (`top`) strings are raw; nested in a list or
 * object they are quoted. Times are always quoted.
 */
export function renderValue(v: PactValue, top: boolean): string {
  switch (v.kind) {
    case "string":
      return top ? v.value : `"${v.value}"`;
    case "integer":
      return v.value.toString();
    case "decimal":
      return decimalToString(v.value);
    case "bool":
      return v.value ? "true" : "false";
    case "time":
      return `"${formatTimeDefault(v.micros)}"`;
    case "list": {
      // A loop, not map with a closure: under tsx each closure made is named by a
      // defineProperty call, and `format` renders lists in loops.
      let s = "[";
      for (let i = 0; i < v.items.length; i++) {
        if (i > 0) s += ", ";
        s += renderValue(v.items[i] as PactValue, false);
      }
      return `${s}]`;
    }
    case "object": {
      const parts: string[] = [];
      for (const [k, x] of v.fields) parts.push(`"${k}": ${renderValue(x, false)}`);
      return `{${parts.join(",")}}`;
    }
    case "guard":
      return renderGuard(v.guard);
    case "modref":
      return `${v.module.namespace === null ? "" : `${v.module.namespace}.`}${v.module.name}`;
    default: {
      const never: never = v;
      return never;
    }
  }
}

/** The repl's display of a value (strings quoted). */
export function showValue(v: PactValue): string {
  return renderValue(v, false);
}
