/**
 * Type names of values as `typeof` and type errors print them (reference §2.13),
 * and the runtime check of type annotations (§2.11).
 * @module
 */
import type { TypeAnn } from "../syntax/parseTree.ts";
import type { PactValue } from "./value.ts";

/** `"integer"`, `"[integer]"`, `"[*]"`, `"object:*"`, `"keyset"`, `"guard"`, `"module{…}"` … */
export function typeOfValue(v: PactValue): string {
  switch (v.kind) {
    case "integer":
    case "decimal":
    case "string":
    case "bool":
    case "time":
      return v.kind;
    case "list": {
      const first = v.items[0];
      if (first === undefined) return "[*]";
      const t = typeOfValue(first);
      return v.items.every((x) => typeOfValue(x) === t) ? `[${t}]` : "[*]";
    }
    case "object":
      return "object:*";
    case "guard":
      return v.guard.kind === "keyset" ? "keyset" : "guard";
    case "modref":
      return `module{${(v.spec ?? []).join(",")}}`;
    default: {
      const never: never = v;
      return never;
    }
  }
}

/** True when `v` satisfies the annotation (schemas are checked in part 2). */
export function valueHasType(v: PactValue, t: TypeAnn): boolean {
  switch (t.kind) {
    case "any":
      return true;
    case "integer":
    case "decimal":
    case "string":
    case "bool":
    case "time":
      return v.kind === t.kind;
    case "keyset":
      return v.kind === "guard" && v.guard.kind === "keyset";
    case "guard":
      return v.kind === "guard";
    case "list":
      return (
        v.kind === "list" &&
        (t.elem === null || v.items.every((x) => valueHasType(x, t.elem as TypeAnn)))
      );
    case "object":
      return v.kind === "object";
    case "table":
      return false;
    case "module":
      return v.kind === "modref" && t.interfaces.every((i) => (v.spec ?? []).includes(i));
    default: {
      const never: never = t;
      return never;
    }
  }
}
