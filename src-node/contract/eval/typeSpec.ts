/**
 * Runtime checks of type annotations (reference §2.11) with schemas:
 * `object{s}` demands exactly the schema's fields (each of its type), a
 * partial check (for `update`) only that present fields belong to the schema.
 * @module
 */
import { typeOfValue } from "../values/typeOf.ts";
import type { PactValue } from "../values/value.ts";
import type { SchemaDef } from "./definitions.ts";
import type { TypeSpec, Value } from "./term.ts";

export function renderTypeSpec(t: TypeSpec): string {
  switch (t.kind) {
    case "list":
      return t.elem === null ? "list" : `[${renderTypeSpec(t.elem)}]`;
    case "object":
    case "table":
      return t.schemaName === null ? t.kind : `${t.kind}{${t.schemaName}}`;
    case "module":
      return `module{${t.interfaces.join(",")}}`;
    case "any":
      return "*";
    default:
      return t.kind;
  }
}

/** The type name of any value, as error messages print it. */
export function typeNameOf(v: Value): string {
  switch (v.kind) {
    case "closure":
    case "nativeFn":
    case "partial":
    case "userFn":
      return "function";
    case "table":
      return `table{${v.def.schema?.def?.name ?? "*"}}`;
    case "schema":
      return `schema{${v.def.name}}`;
    default:
      return typeOfValue(v);
  }
}

/** Why an object does not fit a schema, or null when it does. */
export function schemaMismatch(
  o: ReadonlyMap<string, PactValue>,
  s: SchemaDef,
  partial: boolean,
): string | null {
  const fields = new Map(s.fields.map((f) => [f.name, f] as const));
  for (const [k, v] of o) {
    const f = fields.get(k);
    if (f === undefined) return `field ${k} is not in schema ${s.name}`;
    if (f.type !== null) {
      const why = typeMismatch(v, f.type);
      if (why !== null) return `field ${k}: ${why}`;
    }
  }
  if (!partial) {
    const missing = s.fields.filter((f) => !o.has(f.name)).map((f) => f.name);
    if (missing.length > 0)
      return `missing field${missing.length > 1 ? "s" : ""} ${missing.join(", ")} of schema ${s.name}`;
  }
  return null;
}

/** Why a value does not have a type, or null when it does. */
function expectedText(v: Value, t: TypeSpec): string {
  return `expected ${renderTypeSpec(t)}, found ${typeNameOf(v)}`;
}

export function typeMismatch(v: Value, t: TypeSpec): string | null {
  // Hot (every typed argument and result): no closure is created on the way
  // to a match (tsx names each closure it creates, which costs more than the check).
  switch (t.kind) {
    case "any":
      return null;
    case "integer":
    case "decimal":
    case "string":
    case "bool":
    case "time":
      return v.kind === t.kind ? null : expectedText(v, t);
    case "keyset":
      return v.kind === "guard" && v.guard.kind === "keyset" ? null : expectedText(v, t);
    case "guard":
      return v.kind === "guard" ? null : expectedText(v, t);
    case "list": {
      if (v.kind !== "list") return expectedText(v, t);
      if (t.elem === null) return null;
      for (const x of v.items) if (typeMismatch(x, t.elem) !== null) return expectedText(v, t);
      return null;
    }
    case "object": {
      if (v.kind !== "object") return expectedText(v, t);
      const s = t.schema?.def;
      if (s === undefined || s === null || s.kind !== "defschema") return null;
      const why = schemaMismatch(v.fields, s, false);
      return why === null ? null : `expected ${renderTypeSpec(t)}: ${why}`;
    }
    case "table": {
      if (v.kind !== "table") return expectedText(v, t);
      const s = t.schema?.def;
      if (s === undefined || s === null || v.def.schema === null) return null;
      return v.def.schema.def === s ? null : expectedText(v, t);
    }
    case "module": {
      if (v.kind !== "modref") return expectedText(v, t);
      const spec = v.spec ?? [];
      const ok = t.interfaces.every((i) =>
        spec.some((s) => s === i || s.endsWith(`.${i}`) || i.endsWith(`.${s}`)),
      );
      return ok ? null : expectedText(v, t);
    }
    default: {
      const never: never = t;
      return never;
    }
  }
}
