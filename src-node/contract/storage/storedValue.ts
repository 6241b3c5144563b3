/**
 * A lossless JSON encoding of contract values and system records, for
 * storage implementations that keep text (SQLite). Pact JSON (values/json.ts)
 * is not lossless: an object `{"keys":[…],"pred":…}` reads back as a keyset
 * and decimals lose their written scale, so rows are stored tagged instead:
 * `{"i":"12"}` integer, `{"d":["150",2]}` decimal, `{"t":"µs"}` time,
 * `{"o":{…}}` object, `{"g":{…}}` guard, `{"m":{…}}` module reference;
 * strings, booleans and lists are plain JSON.
 * @module
 */
import { isJsonObject, JsonNumber, type JsonValue, parseJsonExact } from "../values/json.ts";
import { type Guard, makeObject, type PactValue } from "../values/value.ts";
import type { SysRecords, SysTable } from "./contractStorage.ts";
import type { ModuleRecord, ModuleVersion } from "./moduleRecord.ts";
import type { PactExec, PactYield } from "./pactExec.ts";

type J = JsonValue;

function guardToStored(g: Guard): J {
  switch (g.kind) {
    case "keyset":
      return { k: "keyset", keys: [...g.keys], pred: g.pred };
    case "keysetRef":
      return { k: "keysetRef", ns: g.namespace, name: g.name };
    case "user":
      return { k: "user", fun: g.fun, args: g.args.map(valueToStored) };
    case "module":
      return { k: "module", ns: g.module.namespace, mod: g.module.name, name: g.name };
    case "pact":
      return { k: "pact", pactId: g.pactId, name: g.name };
    case "capability":
      return { k: "capability", name: g.name, args: g.args.map(valueToStored), pactId: g.pactId };
    default: {
      const never: never = g;
      return never;
    }
  }
}

/** A value as tagged JSON. */
export function valueToStored(v: PactValue): J {
  switch (v.kind) {
    case "string":
      return v.value;
    case "bool":
      return v.value;
    case "integer":
      return { i: v.value.toString() };
    case "decimal":
      return { d: [v.value.mantissa.toString(), v.value.scale] };
    case "time":
      return { t: v.micros.toString() };
    case "list":
      return v.items.map(valueToStored);
    case "object": {
      const o: { [k: string]: J } = {};
      for (const [k, x] of v.fields) o[k] = valueToStored(x);
      return { o };
    }
    case "guard":
      return { g: guardToStored(v.guard) };
    case "modref":
      return {
        m: {
          ns: v.module.namespace,
          name: v.module.name,
          spec: v.spec === null ? null : [...v.spec],
          ...(v.info === undefined ? {} : { info: v.info }),
        },
      };
    default: {
      const never: never = v;
      return never;
    }
  }
}

/** Thrown (and caught in this file only) when stored text does not decode. */
class Malformed {
  readonly malformed = true;
}
function bad(): never {
  throw new Malformed();
}

function s(j: J | undefined): string {
  return typeof j === "string" ? j : bad();
}
function sOrNull(j: J | undefined): string | null {
  return j === null ? null : s(j);
}
function n(j: J | undefined): number {
  const x = typeof j === "number" ? j : j instanceof JsonNumber ? Number(j.text) : Number.NaN;
  return Number.isSafeInteger(x) ? x : bad();
}
function arr(j: J | undefined): readonly J[] {
  return Array.isArray(j) ? (j as J[]) : bad();
}

function guardFrom(j: J | undefined): Guard {
  if (!isJsonObject(j)) return bad();
  switch (j.k) {
    case "keyset":
      return { kind: "keyset", keys: arr(j.keys).map(s), pred: s(j.pred) };
    case "keysetRef":
      return { kind: "keysetRef", namespace: sOrNull(j.ns), name: s(j.name) };
    case "user":
      return { kind: "user", fun: s(j.fun), args: arr(j.args).map(valueFrom) };
    case "module":
      return {
        kind: "module",
        module: { namespace: sOrNull(j.ns), name: s(j.mod) },
        name: s(j.name),
      };
    case "pact":
      return { kind: "pact", pactId: s(j.pactId), name: s(j.name) };
    case "capability":
      return {
        kind: "capability",
        name: s(j.name),
        args: arr(j.args).map(valueFrom),
        pactId: sOrNull(j.pactId),
      };
    default:
      return bad();
  }
}

function valueFrom(j: J | undefined): PactValue {
  if (typeof j === "string") return { kind: "string", value: j };
  if (typeof j === "boolean") return { kind: "bool", value: j };
  if (Array.isArray(j)) return { kind: "list", items: (j as J[]).map(valueFrom) };
  if (!isJsonObject(j)) return bad();
  if (typeof j.i === "string" && /^-?\d+$/.test(j.i))
    return { kind: "integer", value: BigInt(j.i) };
  if (j.d !== undefined) {
    const [m, sc] = arr(j.d);
    const ms = s(m);
    if (!/^-?\d+$/.test(ms)) return bad();
    return { kind: "decimal", value: { mantissa: BigInt(ms), scale: n(sc) } };
  }
  if (typeof j.t === "string" && /^-?\d+$/.test(j.t)) return { kind: "time", micros: BigInt(j.t) };
  if (isJsonObject(j.o)) {
    const o = j.o;
    return makeObject(Object.keys(o).map((k) => [k, valueFrom(o[k])] as const));
  }
  if (j.g !== undefined) return { kind: "guard", guard: guardFrom(j.g) };
  if (isJsonObject(j.m)) {
    const m = j.m;
    return {
      kind: "modref",
      module: { namespace: sOrNull(m.ns), name: s(m.name) },
      spec: m.spec === null ? null : arr(m.spec).map(s),
      ...(m.info === undefined ? {} : { info: s(m.info) }),
    };
  }
  return bad();
}

/** Decodes tagged JSON; null when it is not a stored value. */
export function valueFromStored(j: J): PactValue | null {
  try {
    return valueFrom(j);
  } catch (e) {
    if (e instanceof Malformed) return null;
    throw e;
  }
}

function versionToStored(v: ModuleVersion): { [k: string]: J } {
  return {
    hash: v.hash,
    code: v.code,
    origin: { file: v.origin.file, line: v.origin.line, column: v.origin.column },
    deps: v.deps.map((d) =>
      d.scope === undefined || d.scope.length === 0
        ? { name: d.name, hash: d.hash }
        : { name: d.name, hash: d.hash, scope: [...d.scope] },
    ),
    consts: v.consts.map((c) => ({ name: c.name, value: valueToStored(c.value) })),
  };
}

function versionFrom(j: J | undefined): ModuleVersion {
  if (!isJsonObject(j) || !isJsonObject(j.origin)) return bad();
  const o = j.origin;
  return {
    hash: s(j.hash),
    code: s(j.code),
    origin: { file: s(o.file), line: n(o.line), column: n(o.column) },
    deps: arr(j.deps).map((d) =>
      !isJsonObject(d)
        ? bad()
        : d.scope === undefined
          ? { name: s(d.name), hash: s(d.hash) }
          : { name: s(d.name), hash: s(d.hash), scope: arr(d.scope).map(s) },
    ),
    consts: arr(j.consts).map((c) =>
      isJsonObject(c) ? { name: s(c.name), value: valueFrom(c.value) } : bad(),
    ),
  };
}

function moduleToStored(m: ModuleRecord): J {
  return {
    ...versionToStored(m),
    kind: m.kind,
    namespace: m.namespace,
    name: m.name,
    governance: m.governance === null ? null : { kind: m.governance.kind, name: m.governance.name },
    blessed: [...m.blessed],
    interfaces: [...m.interfaces],
    history: m.history.map(versionToStored),
  };
}

function moduleFrom(j: J): ModuleRecord {
  if (!isJsonObject(j)) return bad();
  const g = j.governance;
  const kind = j.kind === "module" || j.kind === "interface" ? j.kind : bad();
  return {
    ...versionFrom(j),
    kind,
    namespace: sOrNull(j.namespace),
    name: s(j.name),
    governance:
      g === null
        ? null
        : isJsonObject(g) && (g.kind === "keyset" || g.kind === "capability")
          ? { kind: g.kind, name: s(g.name) }
          : bad(),
    blessed: arr(j.blessed).map(s),
    interfaces: arr(j.interfaces).map(s),
    history: arr(j.history).map(versionFrom),
  };
}

function yieldToStored(y: PactYield): J {
  return {
    data: valueToStored(y.data),
    provenance:
      y.provenance === null
        ? null
        : { targetChainId: y.provenance.targetChainId, moduleHash: y.provenance.moduleHash },
    source: y.source,
  };
}

function execToStored(e: PactExec): J {
  return {
    stepCount: e.stepCount,
    yield: e.yield === null ? null : yieldToStored(e.yield),
    executed: e.executed,
    step: e.step,
    pactId: e.pactId,
    def: e.continuation.def,
    args: e.continuation.args.map(valueToStored),
    stepHasRollback: e.stepHasRollback,
    nested: e.nested.map(execToStored),
  };
}

function execFrom(j: J | undefined): PactExec {
  if (!isJsonObject(j)) return bad();
  const y = j.yield;
  let yv: PactYield | null = null;
  if (y !== null) {
    if (!isJsonObject(y)) return bad();
    const p = y.provenance;
    yv = {
      data: valueFrom(y.data),
      provenance:
        p === null
          ? null
          : isJsonObject(p)
            ? { targetChainId: s(p.targetChainId), moduleHash: s(p.moduleHash) }
            : bad(),
      source: sOrNull(y.source),
    };
  }
  return {
    stepCount: n(j.stepCount),
    yield: yv,
    executed: j.executed === null ? null : typeof j.executed === "boolean" ? j.executed : bad(),
    step: n(j.step),
    pactId: s(j.pactId),
    continuation: { def: s(j.def), args: arr(j.args).map(valueFrom) },
    stepHasRollback: j.stepHasRollback === true,
    nested: arr(j.nested).map(execFrom),
  };
}

/** A system record as JSON text. */
export function sysRecordToText<T extends SysTable>(table: T, r: SysRecords[T]): string {
  let j: J;
  switch (table) {
    case "keysets": {
      const k = r as SysRecords["keysets"];
      j = { keys: [...k.keys], pred: k.pred };
      break;
    }
    case "modules":
      j = moduleToStored(r as SysRecords["modules"]);
      break;
    case "namespaces": {
      const ns = r as SysRecords["namespaces"];
      j = { name: ns.name, user: valueToStored(ns.user), admin: valueToStored(ns.admin) };
      break;
    }
    case "pacts": {
      const p = r as SysRecords["pacts"];
      j = { exec: p.exec === null ? null : execToStored(p.exec) };
      break;
    }
    default:
      return bad();
  }
  return JSON.stringify(j);
}

/** Reads a system record back from {@link sysRecordToText}'s text; null when malformed. */
export function sysRecordFromText<T extends SysTable>(
  table: T,
  text: string,
): SysRecords[T] | null {
  const j = parseJsonExact(text);
  if (j === null) return null;
  try {
    switch (table) {
      case "keysets": {
        if (!isJsonObject(j)) return null;
        return { keys: arr(j.keys).map(s), pred: s(j.pred) } as unknown as SysRecords[T];
      }
      case "modules":
        return moduleFrom(j) as unknown as SysRecords[T];
      case "namespaces":
        if (!isJsonObject(j)) return null;
        return {
          name: s(j.name),
          user: valueFrom(j.user),
          admin: valueFrom(j.admin),
        } as unknown as SysRecords[T];
      case "pacts":
        if (!isJsonObject(j)) return null;
        return { exec: j.exec === null ? null : execFrom(j.exec) } as unknown as SysRecords[T];
      default:
        return null;
    }
  } catch (e) {
    if (e instanceof Malformed) return null;
    throw e;
  }
}

/** A row as JSON text. */
export function rowToText(row: PactValue): string {
  return JSON.stringify(valueToStored(row));
}

/** A row back from {@link rowToText}; null when malformed. */
export function rowFromText(text: string): PactValue | null {
  const j = parseJsonExact(text);
  return j === null ? null : valueFromStored(j);
}
