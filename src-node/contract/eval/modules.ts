/**
 * Modules at run time (reference §1.4, §9): loading a module from storage
 * (linked against the dependency versions recorded at its install, so code
 * keeps running the versions it was written against, as the reference's
 * inlining does), installing and upgrading modules and interfaces
 * (governance, namespace rules, hashes of the exact source text), module
 * admin, top-level name resolution, `use`, and `ref::member` calls.
 *
 * Linked modules are cached across transactions by their exact content
 * (code, origin, dependency versions, constants), per native table.
 * @module
 */
import { blake2b256 } from "../../crypto/blake2.ts";
import { base64UrlEncode } from "../../encoding/base64url.ts";
import { contractInvariant } from "../errors.ts";
import { SysTable } from "../storage/contractStorage.ts";
import type { ModuleDep, ModuleRecord, ModuleVersion } from "../storage/moduleRecord.ts";
import { qualifiedModuleName } from "../storage/moduleRecord.ts";
import { valueToStored } from "../storage/storedValue.ts";
import { parseProgram } from "../syntax/parser.ts";
import type { Span } from "../syntax/span.ts";
import { type PactValue, pString } from "../values/value.ts";
import { acquireGovernanceCap } from "./capabilities.ts";
import type { NameResolver, NativeTable } from "./compile.ts";
import { compileModule, importsOf, moduleHeader } from "./compileModule.ts";
import type { FunctionDef, LoadedModule } from "./definitions.ts";
import { GAS_READ_UNIT, GAS_USE } from "./gasTable.ts";
import { enforceGuardValue, enforceKeysetName } from "./guards.ts";
import type { Interpreter } from "./interpreter.ts";
import { userFn } from "./interpreter.ts";
import { moduleInstallGas, moduleMemoryInstallGas } from "./moduleGas.ts";
import type { Env, Term, Value } from "./term.ts";

const encoder = new TextEncoder();

/** A module hash: BLAKE2b-256 of the exact UTF-8 source text, unpadded base64url (§9.3). */
export function moduleHash(code: string): string {
  return base64UrlEncode(blake2b256(encoder.encode(code)));
}

const linkedCache = new WeakMap<NativeTable, Map<string, LoadedModule>>();
/**
 * The same, by the identity of a decoded current record (a storage hands out
 * one decoded object per record for its lifetime, e.g. a block): a hit skips
 * computing the text key, which costs as much as a small command.
 */
const linkedByRecord = new WeakMap<NativeTable, WeakMap<ModuleRecord, LoadedModule>>();

function moduleNatives(ip: Interpreter): NativeTable {
  const n = ip.moduleNatives;
  if (n === null) throw contractInvariant("module code needs a native table");
  return n;
}

/**
 * The stored record of a module, or null. Finding one charges a read, as the
 * reference charges a module it restores from the database (a miss is free).
 */
export function readModuleRecord(ip: Interpreter, fq: string, span: Span): ModuleRecord | null {
  const rec = ip.ctx.storage.readSys(SysTable.Modules, fq);
  if (rec !== null) ip.chargeGas(GAS_READ_UNIT, span);
  return rec;
}

/** The current version of module `fq`, or null when there is none. */
export function loadModule(ip: Interpreter, fq: string, span: Span): LoadedModule | null {
  const cached = ip.tx.modules.get(fq);
  if (cached !== undefined) return cached;
  const rec = readModuleRecord(ip, fq, span);
  if (rec === null) return null;
  const m = link(ip, rec, rec);
  ip.tx.modules.set(fq, m);
  return m;
}

/**
 * A module another one's stored code depends on, while linking it: free and
 * not remembered in the transaction, as the reference restores a module with
 * its references in place (whether a link is cached must not change gas).
 */
function loadDependency(ip: Interpreter, fq: string): LoadedModule | null {
  const cached = ip.tx.modules.get(fq);
  if (cached !== undefined) return cached;
  const rec = ip.ctx.storage.readSys(SysTable.Modules, fq);
  return rec === null ? null : link(ip, rec, rec);
}

function versionOf(r: ModuleVersion): ModuleVersion {
  return { hash: r.hash, code: r.code, origin: r.origin, deps: r.deps, consts: r.consts };
}

/** Module `fq` as it was at `hash` (the current version or an older one kept in its record). */
function loadVersion(ip: Interpreter, fq: string, hash: string, span: Span): LoadedModule {
  const cached = ip.tx.modules.get(fq);
  if (cached !== undefined && cached.hash === hash) return cached;
  // The current version is linked only when it is the one asked for: a version that
  // depends on an older one of its own module (`DisablePact48`) must not link itself.
  const rec = ip.ctx.storage.readSys(SysTable.Modules, fq);
  if (rec === null) throw ip.failure("EvalError", `Module not found: ${fq}`, span);
  if (rec.hash === hash) return loadDependency(ip, fq) as LoadedModule;
  const v = rec.history.find((h) => h.hash === hash);
  if (v === undefined) throw ip.failure("EvalError", `Module ${fq} has no version ${hash}`, span);
  return link(ip, rec, v);
}

function cacheKey(rec: ModuleRecord, v: ModuleVersion): string {
  return JSON.stringify([
    rec.kind,
    rec.namespace,
    rec.name,
    v.hash,
    v.origin,
    v.deps,
    v.consts.map((c) => [c.name, valueToStored(c.value)]),
  ]);
}

/** Compiles a stored version with its pinned dependencies and stored constants. */
function link(ip: Interpreter, rec: ModuleRecord, v: ModuleVersion): LoadedModule {
  const natives = moduleNatives(ip);
  let cache = linkedCache.get(natives);
  if (cache === undefined) {
    cache = new Map();
    linkedCache.set(natives, cache);
  }
  let byRecord = linkedByRecord.get(natives);
  if (byRecord === undefined) {
    byRecord = new WeakMap();
    linkedByRecord.set(natives, byRecord);
  }
  if (v === rec) {
    const same = byRecord.get(rec);
    if (same !== undefined) return same;
  }
  const key = cacheKey(rec, v);
  const hit = cache.get(key);
  if (hit !== undefined) {
    if (v === rec) byRecord.set(rec, hit);
    return hit;
  }
  const nodes = parseProgram(v.code, v.origin.file, v.origin);
  const node = nodes[0];
  if (nodes.length !== 1 || node === undefined || node.kind !== "sexp")
    throw contractInvariant(
      `stored module ${qualifiedModuleName(rec.namespace, rec.name)} is not one form`,
    );
  const deps = new Map(v.deps.map((d) => [d.name, d.hash] as const));
  const scoped = new Map<string, ModuleDep>();
  for (const d of v.deps) for (const n of d.scope ?? []) scoped.set(n, d);
  const compiled = compileModule(
    node,
    {
      namespace: rec.namespace,
      natives,
      findModule: (written, at) => {
        const w = written.join(".");
        const candidates =
          rec.namespace === null || written.length > 1 ? [w] : [w, `${rec.namespace}.${w}`];
        for (const c of candidates) {
          const h = deps.get(c);
          if (h !== undefined) return loadVersion(ip, c, h, at);
        }
        return null;
      },
      scope: (name) => {
        const d = scoped.get(name);
        return d === undefined
          ? null
          : (loadVersion(ip, d.name, d.hash, node.span).defs.get(name) ?? null);
      },
      // Only the names install resolved from its scope are in scope here.
      scopeFirst: true,
      selfQualifiedToOld: deps.has(qualifiedModuleName(rec.namespace, rec.name)),
    },
    { ...rec, ...versionOf(v) },
  );
  const values = new Map(v.consts.map((c) => [c.name, c.value] as const));
  for (const c of compiled.consts) {
    const value = values.get(c.name);
    if (value === undefined) throw contractInvariant(`stored module lacks constant ${c.name}`);
    compiled.setConst(c, value);
  }
  compiled.module.record = rec;
  compiled.module.version = versionOf(v);
  cache.set(key, compiled.module);
  if (v === rec) byRecord.set(rec, compiled.module);
  if (cache.size > 4096) cache.delete(cache.keys().next().value as string);
  return compiled.module;
}

/**
 * A module by its name as written: `m` is looked up at the root, then in the
 * current namespace; `ns.m` only there.
 */
export function findModule(
  ip: Interpreter,
  written: readonly string[],
  span: Span,
): LoadedModule | null {
  const w = written.join(".");
  const found = loadModule(ip, w, span);
  if (found !== null || written.length > 1) return found;
  const ns = ip.tx.namespace;
  return ns === null ? null : loadModule(ip, `${ns}.${w}`, span);
}

function modrefOf(m: LoadedModule): PactValue {
  return {
    kind: "modref",
    module: m.name,
    spec: m.kind === "interface" ? null : [...m.record.interfaces],
  };
}

/** Resolution of names in top-level code: imports, module members, module references. */
export function topLevelResolver(ip: Interpreter): NameResolver {
  return {
    resolve(parts, span): Term | null {
      if (parts.length === 1) {
        const n = parts[0] as string;
        const imp = ip.tx.imports.get(n);
        if (imp !== undefined) return { kind: "def", cell: { name: n, def: imp }, span };
        const m = findModule(ip, parts, span);
        return m === null ? null : { kind: "lit", value: modrefOf(m), span };
      }
      const member = parts[parts.length - 1] as string;
      const m = findModule(ip, parts.slice(0, -1), span);
      if (m !== null) {
        const d = m.defs.get(member);
        return d === undefined
          ? null
          : { kind: "def", cell: { name: parts.join("."), def: d }, span };
      }
      if (parts.length === 2) {
        const whole = loadModule(ip, parts.join("."), span);
        if (whole !== null) return { kind: "lit", value: modrefOf(whole), span };
      }
      return null;
    },
    schema() {
      return null;
    },
  };
}

/** A name left unresolved at compile time: resolved now, or "Cannot resolve". */
export function resolveFreeAtEval(ip: Interpreter, name: string, span: Span): Value {
  const t = topLevelResolver(ip).resolve(name.split("."), span);
  if (t === null) throw ip.failure("EvalError", `Cannot resolve ${name}`, span);
  return ip.eval(t, null);
}

/** `ref::member`: the member function of the module the reference names (late-bound). */
export function evalDynamic(
  ip: Interpreter,
  t: Extract<Term, { kind: "dynamic" }>,
  env: Env | null,
): Value {
  const r = ip.eval(t.ref, env);
  const what = `${t.refName}::${t.member}`;
  if (r.kind !== "modref")
    throw ip.failure(
      "EvalError",
      `Cannot resolve ${what}: ${t.refName} is not a module reference`,
      t.span,
    );
  const fq = qualifiedModuleName(r.module.namespace, r.module.name);
  const m = loadModule(ip, fq, t.span);
  if (m === null)
    throw ip.failure("EvalError", `Cannot resolve ${what}: module ${fq} not found`, t.span);
  if (m.kind === "interface")
    throw ip.failure("EvalError", `Cannot resolve ${what}: ${fq} is an interface`, t.span);
  const d = m.defs.get(t.member);
  if (d === undefined) {
    // A constant declared by one of the reference's interfaces (Pact's modrefs.repl).
    for (const i of r.spec ?? []) {
      const c = loadModule(ip, i, t.span)?.defs.get(t.member);
      if (c?.kind === "defconst") return c.value;
    }
  }
  if (d === undefined || (d.kind !== "defun" && d.kind !== "defcap" && d.kind !== "defpact"))
    throw ip.failure(
      "EvalError",
      `Cannot resolve ${what}: ${fq} has no function ${t.member}`,
      t.span,
    );
  if (r.spec !== null && r.spec.length > 0) {
    const declared = r.spec.some((i) => loadModule(ip, i, t.span)?.defs.has(t.member) === true);
    if (!declared)
      throw ip.failure(
        "EvalError",
        `Cannot resolve ${what}: ${t.member} is not in the interfaces of the reference`,
        t.span,
      );
  }
  return userFn(d as FunctionDef);
}

/** `(use MOD ["HASH"] [[names]])` at the top level. */
export function applyUse(ip: Interpreter, t: Extract<Term, { kind: "use" }>): Value {
  // The reference charges a top-level `use` 1 (`GUse`), then the module's read.
  ip.chargeGas(GAS_USE, t.span);
  const m = findModule(ip, t.module.split("."), t.span);
  if (m === null) throw ip.failure("EvalError", `use: module not found: ${t.module}`, t.span);
  if (t.hash !== null && t.hash !== m.hash)
    throw ip.failure(
      "EvalError",
      `use: module ${m.fq} hash ${m.hash} does not match specified hash ${t.hash}`,
      t.span,
    );
  const imported = importsOf(m, t.imports, t.span);
  ip.tx.imports = new Map([...ip.tx.imports, ...imported]);
  return pString(`Using ${t.module}`);
}

/**
 * Grants admin of a module for the rest of the transaction: its governance
 * keyset is enforced, or its governance capability's body is run.
 */
export function acquireModuleAdmin(ip: Interpreter, m: LoadedModule, span: Span): void {
  if (ip.tx.moduleAdmin.has(m.fq)) return;
  const cur = loadModule(ip, m.fq, span) ?? m;
  const g = cur.record.governance;
  if (g === null)
    throw ip.failure("EvalError", `${m.fq} is an interface and has no governance`, span);
  if (g.kind === "keyset") enforceKeysetName(ip, g.name, span);
  else acquireGovernanceCap(ip, cur, g.name, span);
  ip.tx.moduleAdmin = new Set([...ip.tx.moduleAdmin, m.fq]);
}

/** Access to what module `m` owns (its tables, capabilities, guards) from the running code. */
export function guardModuleAccess(ip: Interpreter, m: LoadedModule, span: Span): void {
  const running = ip.moduleFrame();
  if (running !== null && running.fq === m.fq) return;
  acquireModuleAdmin(ip, m, span);
}

/** Refuses code of a module version that is neither current nor blessed (the "leftpad" rule). */
export function checkBlessed(ip: Interpreter, m: LoadedModule, span: Span): void {
  const cur = loadModule(ip, m.fq, span);
  if (cur === null || cur.hash === m.hash || cur.record.blessed.includes(m.hash)) return;
  throw ip.failure(
    "EvalError",
    `Execution aborted, hash not blessed for module ${m.fq}: ${m.hash}`,
    span,
  );
}

function enforceNamespaceForInstall(ip: Interpreter, ns: string | null, span: Span): void {
  const policy = ip.ctx.namespacePolicy;
  if (ns === null) {
    if (policy.kind === "smart" && !policy.allowRoot)
      throw ip.failure("EvalError", "Definitions in default namespace are not authorized", span);
    return;
  }
  // The reference holds the current namespace from `namespace` (which paid its read).
  const rec = ip.ctx.storage.readSys(SysTable.Namespaces, ns);
  if (rec === null) throw ip.failure("EvalError", `Namespace not found: ${ns}`, span);
  enforceGuardValue(ip, rec.user, span);
}

/** Installs or upgrades a module or interface (`(module …)`, `(interface …)`). */
export function installModule(ip: Interpreter, t: Extract<Term, { kind: "moduleDecl" }>): Value {
  const span = t.span;
  if (ip.moduleFrame() !== null)
    throw ip.failure("EvalError", "module: declarations are only allowed at the top level", span);
  const header = moduleHeader(t.node);
  const ns = ip.tx.namespace;
  const fq = qualifiedModuleName(ns, header.name);
  const existing = readModuleRecord(ip, fq, span);
  if (existing !== null) {
    if (existing.kind === "interface")
      throw ip.failure(
        "EvalError",
        `Existing interface found: ${fq} (interfaces cannot be upgraded)`,
        span,
      );
    if (header.kind === "interface")
      throw ip.failure("EvalError", `Name already in use by a module: ${fq}`, span);
    const old = loadModule(ip, fq, span) as LoadedModule;
    acquireModuleAdmin(ip, old, span);
  } else {
    enforceNamespaceForInstall(ip, ns, span);
  }
  ip.chargeGas(moduleInstallGas(header, t.code, ns, ip.ctx.execFlags), span);
  const hash = moduleHash(t.code);
  // Before Pact 4.8 an upgrade's references to its own members qualified by its
  // name still reached the version being replaced.
  const selfToOld = existing !== null && ip.ctx.execFlags.has("DisablePact48");
  const deps = new Map<string, string>();
  const scopeNames = new Map<string, string[]>();
  const origin = { file: span.file, line: span.line, column: span.column };
  const draft: ModuleRecord = {
    kind: header.kind,
    namespace: ns,
    name: header.name,
    hash,
    code: t.code,
    origin,
    deps: [],
    consts: [],
    governance: header.governance,
    blessed: [],
    interfaces: [],
    history: [],
  };
  const compiled = compileModule(
    t.node,
    {
      namespace: ns,
      natives: moduleNatives(ip),
      findModule: (written, at) => {
        const m = findModule(ip, written, at);
        if (m !== null && (m.fq !== fq || selfToOld)) deps.set(m.fq, m.hash);
        return m;
      },
      scope: (name) => {
        const d = ip.tx.imports.get(name);
        if (d === undefined || d.module.fq === fq) return null;
        deps.set(d.module.fq, d.module.hash);
        scopeNames.set(d.module.fq, [...(scopeNames.get(d.module.fq) ?? []), name]);
        return d;
      },
      scopeFirst: ip.ctx.execFlags.has("DisablePact43"),
      selfQualifiedToOld: selfToOld,
    },
    draft,
  );
  const module = compiled.module;
  const consts: { name: string; value: PactValue }[] = [];
  for (const c of compiled.consts) {
    const v = ip.inModule(module, `${fq}.${c.name}`, c.span, () =>
      ip.withPurity("sysonly", () => ip.eval(c.term, null)),
    );
    if (c.type !== null) ip.checkType(v, c.type, c.span, c.name);
    const value = ip.data(v, c.span, `constant ${c.name}`);
    compiled.setConst(c, value);
    consts.push({ name: c.name, value });
  }
  if (header.kind === "module") {
    ip.chargeGas(
      moduleMemoryInstallGas(
        header,
        t.code,
        {
          namespace: ns,
          hash,
          interfaces: compiled.interfaces.map((i) => i.fq),
          consts: new Map(consts.map((c) => [c.name, c.value] as const)),
          // Only what compiling reached (cached in the transaction): sizing reads nothing.
          findModule: (written) => {
            const w = written.join(".");
            const m =
              ip.tx.modules.get(w) ??
              (ns === null || written.length > 1 ? undefined : ip.tx.modules.get(`${ns}.${w}`));
            return m === undefined
              ? null
              : {
                  kind: m.kind,
                  namespace: m.name.namespace,
                  name: m.name.name,
                  interfaces: m.record.interfaces,
                  code: m.version.code,
                  hash: m.hash,
                };
          },
        },
        ip.ctx.execFlags,
      ),
      span,
    );
  }
  if (existing === null && header.governance?.kind === "keyset")
    enforceKeysetName(ip, header.governance.name, span);
  const depList: ModuleDep[] = [...deps]
    .map(([name, h]) => {
      const scope = scopeNames.get(name);
      return scope === undefined
        ? { name, hash: h }
        : { name, hash: h, scope: [...new Set(scope)].sort() };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const history =
    existing === null
      ? []
      : existing.hash === hash
        ? existing.history
        : [...existing.history, versionOf(existing)];
  const record: ModuleRecord = {
    ...draft,
    deps: depList,
    consts,
    blessed: compiled.blessed,
    interfaces: compiled.interfaces.map((i) => i.fq),
    history,
  };
  module.record = record;
  module.version = versionOf(record);
  ip.writeSys(SysTable.Modules, fq, record, span);
  ip.tx.modules.set(fq, module);
  // The reference once granted a namespaced module's admin under its bare name, so
  // it did not hold afterwards; `PreserveNsModuleInstallBug` keeps that.
  const granted = ip.ctx.execFlags.has("PreserveNsModuleInstallBug") ? header.name : fq;
  ip.tx.moduleAdmin = new Set([...ip.tx.moduleAdmin, granted]);
  // An installed module's members are in scope, unqualified, for the rest of the transaction.
  ip.tx.imports = new Map([...ip.tx.imports, ...module.defs]);
  return pString(`Loaded ${header.kind} ${fq}, hash ${hash}`);
}
