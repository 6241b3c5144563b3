/**
 * Compiles a `module` or `interface` declaration (reference §1.3, §9.2):
 * header (name, governance, doc/model metadata), members (`defun`, `defcap`
 * with `@managed`/`@event`, `defpact` steps, `defconst`, `defschema`,
 * `deftable`, `use`, `implements`, `bless`), name resolution inside the body
 * (own members in any order, imports, other modules' members, module
 * references), the rejection of recursion, and the signature check of
 * implemented interfaces. Constants are returned unevaluated, in dependency
 * order, for the caller to evaluate (or to fill from a stored record).
 * @module
 */
import { contractFailure, type PactErrorKind } from "../errors.ts";
import type { Governance, ModuleRecord } from "../storage/moduleRecord.ts";
import { qualifiedModuleName } from "../storage/moduleRecord.ts";
import type { AtomNode, ParseNode } from "../syntax/parseTree.ts";
import type { Span } from "../syntax/span.ts";
import type { PactValue } from "../values/value.ts";
import { Compiler, type NameResolver, type NativeTable, type Scope } from "./compile.ts";
import type {
  CapMeta,
  Def,
  FunctionDef,
  LoadedModule,
  PactStep,
  SchemaDef,
  SchemaField,
  TableDef,
} from "./definitions.ts";
import type { DefCell, Param, Term, TypeSpec } from "./term.ts";
import { renderTypeSpec } from "./typeSpec.ts";

type Sexp = Extract<ParseNode, { kind: "sexp" }>;

function fail(kind: PactErrorKind, message: string, span: Span): never {
  throw contractFailure(kind, message, span);
}

export type ModuleHeader = {
  readonly kind: "module" | "interface";
  readonly name: string;
  readonly governance: Governance | null;
  readonly body: readonly ParseNode[];
  readonly span: Span;
};

/** Where the module being compiled finds other modules. */
export type ModuleCompileEnv = {
  /** The namespace the module is declared in. */
  readonly namespace: string | null;
  readonly natives: NativeTable;
  /**
   * Another module by its name as written (`m` or `ns.m`): the version this
   * module links against. The caller records it as a dependency.
   */
  findModule(written: readonly string[], span: Span): LoadedModule | null;
  /**
   * A bare name the installing transaction has in scope (members of modules
   * it used or installed), tried after the module's own members and imports.
   * The caller records which module it came from.
   */
  scope?: ((name: string) => Def | null) | undefined;
  /**
   * Bare names in the transaction's scope are tried before the module's own
   * members (the reference before Pact 4.3, `DisablePact43`; and when
   * relinking, where only the names install resolved so are in scope).
   */
  readonly scopeFirst?: boolean;
  /**
   * A reference to the module's own members qualified by its name resolves
   * through `findModule`, to the version installed before this one (the
   * reference before Pact 4.8, `DisablePact48`).
   */
  readonly selfQualifiedToOld?: boolean;
};

/** A constant to evaluate (in this order) before the module is usable. */
export type PendingConst = {
  readonly cell: DefCell;
  readonly name: string;
  readonly term: Term;
  readonly type: TypeSpec | null;
  readonly span: Span;
};

export type CompiledModule = {
  readonly module: LoadedModule;
  readonly header: ModuleHeader;
  readonly blessed: readonly string[];
  readonly interfaces: readonly LoadedModule[];
  readonly consts: readonly PendingConst[];
  /** Fills the constants' cells once their values are known. */
  setConst(c: PendingConst, value: PactValue): void;
};

function atomName(n: ParseNode | undefined, what: string, span: Span): AtomNode {
  if (n === undefined || n.kind !== "atom" || n.parts.length !== 1)
    return fail("SyntaxError", `expected ${what}`, n?.span ?? span);
  return n;
}

function isAtom(n: ParseNode | undefined, name: string): boolean {
  return (
    n !== undefined &&
    n.kind === "atom" &&
    n.parts.length === 1 &&
    n.parts[0] === name &&
    n.type === null
  );
}

/**
 * Skips documentation and model metadata (`"doc"`, `@doc "…"`, `@model […]`)
 * starting at `i`; a bare string counts as a docstring only when more items follow.
 */
function skipMeta(
  items: readonly ParseNode[],
  i: number,
  modelAllowed = true,
  docMayEnd = false,
): number {
  let j = i;
  let sawDoc = false;
  while (j < items.length) {
    const n = items[j] as ParseNode;
    if (n.kind === "string" && !sawDoc && (docMayEnd || j < items.length - 1)) {
      sawDoc = true;
      j++;
    } else if (isAtom(n, "@doc")) {
      const d = items[j + 1];
      if (d === undefined || d.kind !== "string")
        fail("SyntaxError", "@doc: expected a string", n.span);
      j += 2;
    } else if (isAtom(n, "@model")) {
      if (!modelAllowed) fail("SyntaxError", "@model is not allowed here", n.span);
      const m = items[j + 1];
      if (m === undefined || m.kind !== "list")
        fail("SyntaxError", "@model: expected a list", n.span);
      j += 2;
    } else break;
  }
  return j;
}

/** Reads the header of a `module`/`interface` form. */
export function moduleHeader(node: Sexp): ModuleHeader {
  const items = node.items;
  const kind = isAtom(items[0], "interface") ? "interface" : "module";
  const name = atomName(items[1], `a ${kind} name`, node.span);
  if (name.type !== null) fail("SyntaxError", `${kind} name cannot have a type`, name.span);
  let i = 2;
  let governance: Governance | null = null;
  if (kind === "module") {
    const g = items[2];
    if (g === undefined)
      return fail(
        "SyntaxError",
        "module: expected a governance keyset name or capability",
        node.span,
      );
    if (g.kind === "string" || g.kind === "symbol") governance = { kind: "keyset", name: g.value };
    else if (g.kind === "atom" && g.parts.length === 1 && g.type === null)
      governance = { kind: "capability", name: g.parts[0] as string };
    else fail("SyntaxError", "module: governance is a keyset name or a capability name", g.span);
    i = 3;
  }
  i = skipMeta(items, i);
  return { kind, name: name.parts[0] as string, governance, body: items.slice(i), span: node.span };
}

const MEMBER_FORMS = new Set(["defun", "defcap", "defpact", "defconst", "defschema", "deftable"]);

type MemberSrc = { readonly form: string; readonly name: string; readonly node: Sexp };

class ModuleCompiler {
  readonly header: ModuleHeader;
  readonly env: ModuleCompileEnv;
  readonly fq: string;
  readonly module: LoadedModule;
  readonly defs = new Map<string, Def>();
  readonly cells = new Map<string, DefCell>();
  readonly imports = new Map<string, Def>();
  readonly blessed: string[] = [];
  readonly interfaces: LoadedModule[] = [];
  /** Own members referenced by the member being compiled. */
  private refs: Set<string> = new Set();
  readonly edges = new Map<string, Set<string>>();
  readonly compiler: Compiler;

  constructor(header: ModuleHeader, env: ModuleCompileEnv, record: ModuleRecord) {
    this.header = header;
    this.env = env;
    this.fq = qualifiedModuleName(env.namespace, header.name);
    this.module = {
      kind: header.kind,
      name: { namespace: env.namespace, name: header.name },
      fq: this.fq,
      record,
      version: record,
      hash: record.hash,
      defs: this.defs,
    };
    const resolver: NameResolver = {
      resolve: (parts, span) => this.resolve(parts, span),
      schema: (name) => this.schemaCell(name),
    };
    this.compiler = new Compiler({ natives: env.natives, resolver, strictNames: true });
  }

  ownCell(name: string): DefCell | null {
    const c = this.cells.get(name);
    if (c === undefined) return null;
    this.refs.add(name);
    return c;
  }

  selfRef(span: Span): Term {
    return {
      kind: "lit",
      value: {
        kind: "modref",
        module: this.module.name,
        spec: this.header.kind === "interface" ? null : this.interfaces.map((i) => i.fq),
      },
      span,
    };
  }

  memberOf(m: LoadedModule, member: string, span: Span): Term | null {
    const d = m.defs.get(member);
    if (d === undefined) return null;
    return { kind: "def", cell: { name: `${m.fq}.${member}`, def: d }, span };
  }

  modref(m: LoadedModule, span: Span): Term {
    return {
      kind: "lit",
      value: {
        kind: "modref",
        module: m.name,
        spec: m.kind === "interface" ? null : [...m.record.interfaces],
      },
      span,
    };
  }

  resolve(parts: readonly string[], span: Span): Term | null {
    if (parts.length === 1) {
      const n = parts[0] as string;
      if (this.env.scopeFirst === true) {
        const first = this.env.scope?.(n) ?? null;
        if (first !== null) return { kind: "def", cell: { name: n, def: first }, span };
      }
      const own = this.ownCell(n);
      if (own !== null) return { kind: "def", cell: own, span };
      const imp = this.imports.get(n);
      if (imp !== undefined) return { kind: "def", cell: { name: n, def: imp }, span };
      if (n === this.header.name) return this.selfRef(span);
      const scoped = this.env.scope?.(n) ?? null;
      if (scoped !== null) return { kind: "def", cell: { name: n, def: scoped }, span };
      const m = this.env.findModule([n], span);
      return m === null ? null : this.modref(m, span);
    }
    const member = parts[parts.length - 1] as string;
    const modParts = parts.slice(0, -1);
    if (
      this.env.selfQualifiedToOld !== true &&
      (modParts.join(".") === this.header.name || modParts.join(".") === this.fq)
    ) {
      const own = this.ownCell(member);
      return own === null ? null : { kind: "def", cell: own, span };
    }
    const m = this.env.findModule(modParts, span);
    if (m !== null) return this.memberOf(m, member, span);
    if (parts.length <= 2) {
      if (parts.join(".") === this.fq) return this.selfRef(span);
      const whole = this.env.findModule(parts, span);
      if (whole !== null) return this.modref(whole, span);
    }
    return null;
  }

  schemaCell(name: string): DefCell | null {
    const parts = name.split(".");
    if (parts.length === 1) {
      const first = this.env.scopeFirst === true ? (this.env.scope?.(name) ?? null) : null;
      if (first?.kind === "defschema") return { name, def: first };
      const own = this.ownCell(name);
      if (own !== null) return own;
      const imp = this.imports.get(name) ?? this.env.scope?.(name) ?? undefined;
      return imp?.kind === "defschema" ? { name, def: imp } : null;
    }
    const t = this.resolve(parts, this.header.span);
    if (t !== null && t.kind === "def" && (t.cell.def === null || t.cell.def.kind === "defschema"))
      return t.cell;
    return null;
  }

  /** First pass: members' names, imports, implemented interfaces, blessed hashes. */
  scan(): MemberSrc[] {
    const members: MemberSrc[] = [];
    const isIface = this.header.kind === "interface";
    for (const n of this.header.body) {
      if (n.kind !== "sexp" || n.items[0]?.kind !== "atom") {
        fail(
          "SyntaxError",
          `${this.header.kind} ${this.header.name}: expected a definition, found ${n.kind}`,
          n.span,
        );
      }
      const head = n.items[0] as AtomNode;
      const form = head.parts.join(".");
      if (MEMBER_FORMS.has(form)) {
        if (isIface && form === "deftable")
          fail("SyntaxError", "deftable is not allowed in an interface", n.span);
        const nameNode = atomName(n.items[1], `a ${form} name`, n.span);
        const name = nameNode.parts[0] as string;
        if (this.cells.has(name))
          fail(
            "SyntaxError",
            `definition name conflict: ${name} is defined twice in ${this.fq}`,
            nameNode.span,
          );
        if (this.env.natives.has(name))
          fail(
            "SyntaxError",
            `${this.fq}.${name}: a module member cannot reuse the name of the native ${name}`,
            nameNode.span,
          );
        this.cells.set(name, { name: `${this.fq}.${name}`, def: null });
        members.push({ form, name, node: n });
      } else if (form === "use") {
        this.importForm(n);
      } else if (form === "implements") {
        if (isIface) fail("SyntaxError", "implements is not allowed in an interface", n.span);
        const iname = n.items[1];
        if (iname === undefined || iname.kind !== "atom" || n.items.length !== 2)
          fail("SyntaxError", "implements: expected an interface name", n.span);
        const iface = this.env.findModule(iname.parts, iname.span);
        if (iface === null)
          fail(
            "EvalError",
            `implements: interface not found: ${iname.parts.join(".")}`,
            iname.span,
          );
        if (iface.kind !== "interface")
          fail("EvalError", `implements: ${iface.fq} is a module, not an interface`, iname.span);
        this.interfaces.push(iface);
      } else if (form === "bless") {
        if (isIface) fail("SyntaxError", "bless is not allowed in an interface", n.span);
        const h = n.items[1];
        if (h === undefined || (h.kind !== "string" && h.kind !== "symbol") || n.items.length !== 2)
          fail("SyntaxError", "bless: expected a module hash", n.span);
        if (!/^[A-Za-z0-9_-]{43}$/.test(h.value))
          fail("EvalError", `bless: not a module hash: ${h.value}`, h.span);
        this.blessed.push(h.value);
      } else {
        fail(
          "SyntaxError",
          `${this.header.kind} ${this.header.name}: ${form} is not allowed here`,
          n.span,
        );
      }
    }
    return members;
  }

  importForm(n: Sexp): void {
    const [, mod, a, b] = n.items;
    if (mod === undefined || mod.kind !== "atom")
      fail("SyntaxError", "use: expected a module name", n.span);
    const m = this.env.findModule(mod.parts, mod.span);
    if (m === null) fail("EvalError", `use: module not found: ${mod.parts.join(".")}`, mod.span);
    let list: ParseNode | undefined = a;
    if (a !== undefined && (a.kind === "string" || a.kind === "symbol")) {
      if (a.value !== m.hash)
        fail(
          "EvalError",
          `use: module ${m.fq} hash ${m.hash} does not match specified hash ${a.value}`,
          a.span,
        );
      list = b;
    }
    const names = list === undefined ? null : importList(list);
    for (const [k, d] of importsOf(m, names, n.span)) this.imports.set(k, d);
  }

  withRefs<T>(name: string, f: () => T): T {
    this.refs = new Set();
    const r = f();
    const e = this.edges.get(name) ?? new Set<string>();
    for (const x of this.refs) e.add(x);
    this.edges.set(name, e);
    return r;
  }

  params(n: ParseNode | undefined, span: Span): Param[] {
    if (n === undefined || n.kind !== "sexp")
      return fail("SyntaxError", "expected an argument list (a b …)", n?.span ?? span);
    const ps = n.items.map((x) => this.compiler.param(x, "an argument"));
    const seen = new Set<string>();
    for (const p of ps) {
      if (seen.has(p.name)) fail("SyntaxError", `duplicate argument ${p.name}`, p.span);
      seen.add(p.name);
    }
    return ps;
  }

  function(m: MemberSrc): FunctionDef {
    const items = m.node.items;
    const nameNode = items[1] as AtomNode;
    const kind = m.form as "defun" | "defcap" | "defpact";
    const params = this.params(items[2], m.node.span);
    const ret = nameNode.type === null ? null : this.compiler.typeSpec(nameNode.type);
    const signature = this.header.kind === "interface";
    // An interface member has no body, so a final string is its docstring.
    let i = skipMeta(items, 3, true, signature);
    let cap: CapMeta | null = null;
    if (kind === "defcap") {
      cap = { kind: "plain" };
      const at = items[i];
      if (isAtom(at, "@event")) {
        cap = { kind: "event" };
        i++;
      } else if (isAtom(at, "@managed")) {
        const p = items[i + 1];
        const mgr = items[i + 2];
        const paramName =
          p?.kind === "atom" && p.parts.length === 1 ? (p.parts[0] as string) : null;
        const idx = paramName === null ? -1 : params.findIndex((x) => x.name === paramName);
        if (idx >= 0 && mgr !== undefined && mgr.kind === "atom" && mgr.parts.length === 1) {
          const mgrName = mgr.parts[0] as string;
          let mgrCell: DefCell | null = null;
          if (this.header.kind === "module") {
            mgrCell = this.cells.get(mgrName) ?? null;
            if (mgrCell === null)
              fail("EvalError", `@managed: manager function not found: ${mgrName}`, mgr.span);
            this.edges.set(m.name, new Set([...(this.edges.get(m.name) ?? []), mgrName]));
          }
          cap = {
            kind: "managed",
            param: paramName as string,
            paramIndex: idx,
            mgr: mgrCell,
            mgrName,
          };
          i += 3;
        } else {
          if (paramName !== null && idx < 0 && mgr !== undefined && mgr.kind === "atom")
            fail(
              "EvalError",
              `@managed: ${paramName} is not an argument of ${m.name}`,
              p?.span ?? m.node.span,
            );
          cap = { kind: "autoManaged" };
          i++;
        }
      }
    }
    if (signature) i = skipMeta(items, i, true, true);
    const rest = items.slice(i);
    const scope: Scope = { names: params.map((p) => p.name), parent: null };
    if (signature && rest.length > 0)
      fail(
        "SyntaxError",
        `${m.form} ${m.name}: interface members have no body`,
        (rest[0] as ParseNode).span,
      );
    if (!signature && rest.length === 0)
      fail("SyntaxError", `${m.form} ${m.name}: expected a body`, m.node.span);
    let body: Term[] = [];
    let steps: PactStep[] = [];
    this.withRefs(m.name, () => {
      if (kind === "defpact") {
        if (!signature) steps = rest.map((s, k) => this.step(s, scope, k === rest.length - 1));
      } else if (!signature) {
        body = this.compiler.body(rest, scope, m.form, m.node.span);
      }
    });
    return {
      kind,
      name: m.name,
      fqName: `${this.fq}.${m.name}`,
      module: this.module,
      params,
      ret,
      body,
      steps,
      cap,
      signature,
      span: m.node.span,
    };
  }

  step(n: ParseNode, scope: Scope, last: boolean): PactStep {
    if (
      n.kind !== "sexp" ||
      !(isAtom(n.items[0], "step") || isAtom(n.items[0], "step-with-rollback"))
    )
      return fail(
        "SyntaxError",
        "defpact: the body is made of (step …) and (step-with-rollback …) forms",
        n.span,
      );
    const withRollback = isAtom(n.items[0], "step-with-rollback");
    const parts: ParseNode[] = [];
    for (let k = 1; k < n.items.length; k++) {
      const x = n.items[k] as ParseNode;
      if (isAtom(x, "@model")) k++;
      else parts.push(x);
    }
    const expected = withRollback ? [2, 3] : [1, 2];
    if (!expected.includes(parts.length))
      fail(
        "SyntaxError",
        `${withRollback ? "step-with-rollback" : "step"}: expected ${withRollback ? "EXPR ROLLBACK" : "EXPR"} (with an optional entity first)`,
        n.span,
      );
    if (withRollback && last)
      fail("SyntaxError", "rollbacks aren't allowed on the last step", n.span);
    const hasEntity = parts.length === (withRollback ? 3 : 2);
    const e = (x: ParseNode | undefined): Term => this.compiler.expr(x as ParseNode, scope);
    return {
      entity: hasEntity ? e(parts[0]) : null,
      expr: e(parts[hasEntity ? 1 : 0]),
      rollback: withRollback ? e(parts[hasEntity ? 2 : 1]) : null,
      span: n.span,
    };
  }

  schema(m: MemberSrc): SchemaDef {
    const items = m.node.items;
    const i = skipMeta(items, 2, true, true);
    const fields: SchemaField[] = items.slice(i).map((f) => {
      const a = atomName(f, "a schema field (name:type)", m.node.span);
      return {
        name: a.parts[0] as string,
        type: a.type === null ? null : this.compiler.typeSpec(a.type),
      };
    });
    const seen = new Set<string>();
    for (const f of fields) {
      if (seen.has(f.name))
        fail("SyntaxError", `defschema ${m.name}: duplicate field ${f.name}`, m.node.span);
      seen.add(f.name);
    }
    return { kind: "defschema", name: m.name, module: this.module, fields, span: m.node.span };
  }

  table(m: MemberSrc): TableDef {
    const items = m.node.items;
    const nameNode = items[1] as AtomNode;
    if (skipMeta(items, 2, false, true) !== items.length)
      fail("SyntaxError", "deftable: expected (deftable name:{schema} [doc])", m.node.span);
    let schema: DefCell | null = null;
    if (nameNode.type !== null) {
      const t = nameNode.type;
      if (t.kind !== "object" || t.schema === null)
        fail("SyntaxError", "deftable: the type is a schema, {schema}", nameNode.span);
      schema = this.withRefs(m.name, () => this.schemaCell(t.schema as string));
      if (schema === null)
        fail("EvalError", `deftable ${m.name}: schema not found: ${t.schema}`, nameNode.span);
    }
    return {
      kind: "deftable",
      name: m.name,
      module: this.module,
      schema,
      physical: `${this.fq}_${m.name}`,
      span: m.node.span,
    };
  }

  constant(m: MemberSrc): PendingConst {
    const items = m.node.items;
    const nameNode = items[1] as AtomNode;
    const expr = items[2];
    if (expr === undefined) return fail("SyntaxError", "defconst: expected a value", m.node.span);
    const end = skipMeta(items, 3, false, true);
    if (end !== items.length)
      fail("SyntaxError", "defconst: expected (defconst NAME VALUE [doc])", m.node.span);
    const term = this.withRefs(m.name, () => this.compiler.expr(expr, null));
    return {
      cell: this.cells.get(m.name) as DefCell,
      name: m.name,
      term,
      type: nameNode.type === null ? null : this.compiler.typeSpec(nameNode.type),
      span: m.node.span,
    };
  }

  /** Rejects direct and mutual recursion; returns members in dependency order. */
  order(names: readonly string[], span: (n: string) => Span): string[] {
    const out: string[] = [];
    const state = new Map<string, "visiting" | "done">();
    const visit = (n: string, path: string[]): void => {
      const s = state.get(n);
      if (s === "done") return;
      if (s === "visiting") {
        const cycle = [...path.slice(path.indexOf(n)), n];
        fail("EvalError", `Recursion detected: ${cycle.join(" -> ")}`, span(n));
      }
      state.set(n, "visiting");
      for (const d of this.edges.get(n) ?? []) if (this.cells.has(d)) visit(d, [...path, n]);
      state.set(n, "done");
      out.push(n);
    };
    for (const n of names) visit(n, []);
    return out;
  }

  compile(): CompiledModule {
    const members = this.scan();
    const consts: PendingConst[] = [];
    const spans = new Map<string, Span>();
    // Schemas first: types of other members refer to them.
    for (const m of members) {
      spans.set(m.name, m.node.span);
      if (m.form === "defschema")
        this.fill(
          m.name,
          this.withRefs(m.name, () => this.schema(m)),
        );
    }
    for (const m of members) {
      switch (m.form) {
        case "defun":
        case "defcap":
        case "defpact":
          this.fill(m.name, this.function(m));
          break;
        case "deftable":
          this.fill(m.name, this.table(m));
          break;
        case "defconst":
          consts.push(this.constant(m));
          break;
        default:
          break;
      }
    }
    const order = this.order(
      members.map((m) => m.name),
      (n) => spans.get(n) ?? this.header.span,
    );
    const rank = new Map(order.map((n, i) => [n, i] as const));
    consts.sort((a, b) => (rank.get(a.name) ?? 0) - (rank.get(b.name) ?? 0));
    this.checkGovernance();
    for (const iface of this.interfaces) checkImplements(this.module, iface, this.header.span);
    const self = this;
    return {
      module: this.module,
      header: this.header,
      blessed: this.blessed,
      interfaces: this.interfaces,
      consts,
      setConst(c, value) {
        const d: Def = {
          kind: "defconst",
          name: c.name,
          module: self.module,
          type: c.type,
          value,
          span: c.span,
        };
        c.cell.def = d;
        self.defs.set(c.name, d);
      },
    };
  }

  fill(name: string, d: Def): void {
    (this.cells.get(name) as DefCell).def = d;
    this.defs.set(name, d);
  }

  checkGovernance(): void {
    const g = this.header.governance;
    if (g === null || g.kind !== "capability") return;
    const d = this.defs.get(g.name);
    if (d === undefined || d.kind !== "defcap")
      fail(
        "EvalError",
        `module ${this.fq}: governance capability ${g.name} is not a defcap of the module`,
        this.header.span,
      );
    if (d.params.length > 0)
      fail(
        "EvalError",
        `module ${this.fq}: governance capability ${g.name} takes no arguments`,
        d.span,
      );
  }
}

function importList(n: ParseNode): string[] {
  if (n.kind !== "list") return fail("SyntaxError", "use: expected a list of names", n.span);
  return n.items.map((x) => {
    if (x.kind !== "atom" || x.parts.length !== 1)
      return fail("SyntaxError", "use: import lists contain bare names", x.span);
    return x.parts[0] as string;
  });
}

/** The members a `use` brings into scope (all, or the listed ones). */
export function importsOf(
  m: LoadedModule,
  names: readonly string[] | null,
  span: Span,
): Map<string, Def> {
  const out = new Map<string, Def>();
  if (names === null) {
    for (const [k, d] of m.defs) out.set(k, d);
    return out;
  }
  for (const n of names) {
    const d = m.defs.get(n);
    if (d === undefined) fail("EvalError", `use: invalid import: ${m.fq} has no member ${n}`, span);
    if (d.kind === "defcap") fail("EvalError", `use: cannot import capabilities: ${n}`, span);
    if (d.kind === "deftable") fail("EvalError", `use: invalid import: ${n} is a table`, span);
    out.set(n, d);
  }
  return out;
}

function capMetaText(c: CapMeta | null): string {
  if (c === null) return "";
  switch (c.kind) {
    case "plain":
      return "no metadata";
    case "event":
      return "@event";
    case "autoManaged":
      return "@managed";
    case "managed":
      return `@managed ${c.param} ${c.mgrName}`;
    default: {
      const never: never = c;
      return never;
    }
  }
}

function typeText(t: TypeSpec | null): string {
  if (t === null) return "*";
  // Schema names compare by their last part (`fungible-v2.account-details` = `account-details`).
  return renderTypeSpec(t).replace(/\{([^}]*)\}/g, (_m, s: string) =>
    s.includes(",") ? `{${s}}` : `{${s.split(".").pop() ?? s}}`,
  );
}

/** The module defines every member of the interface with the same signature (§9.2). */
function checkImplements(m: LoadedModule, iface: LoadedModule, span: Span): void {
  for (const [name, d] of iface.defs) {
    if (d.kind !== "defun" && d.kind !== "defcap" && d.kind !== "defpact") continue;
    const impl = m.defs.get(name);
    const what = `${iface.fq}.${name}`;
    if (impl === undefined)
      fail("EvalError", `Missing implementation of interface member ${what} in ${m.fq}`, span);
    if (impl.kind !== d.kind)
      fail(
        "EvalError",
        `Signature mismatch with ${iface.fq}: ${name} is a ${impl.kind}, expected a ${d.kind}`,
        impl.span,
      );
    if (impl.params.length !== d.params.length)
      fail(
        "EvalError",
        `Signature mismatch with ${iface.fq}: ${name} takes ${impl.params.length} arguments, expected ${d.params.length}`,
        impl.span,
      );
    d.params.forEach((p, i) => {
      const q = impl.params[i] as Param;
      if (q.name !== p.name || (p.type !== null && typeText(q.type) !== typeText(p.type)))
        fail(
          "EvalError",
          `Signature mismatch with ${iface.fq}: ${name} argument ${q.name}:${typeText(q.type)}, expected ${p.name}:${typeText(p.type)}`,
          impl.span,
        );
    });
    if (d.ret !== null && typeText(impl.ret) !== typeText(d.ret))
      fail(
        "EvalError",
        `Signature mismatch with ${iface.fq}: ${name} returns ${typeText(impl.ret)}, expected ${typeText(d.ret)}`,
        impl.span,
      );
    if (d.kind === "defcap") {
      const found = capMetaText(impl.cap);
      const expected = capMetaText(d.cap);
      // An interface's bare `@managed` admits any managed implementation, one-shot or
      // with a manager (Pact's caps.repl: `CAP_B … @managed` implemented as
      // `@managed times capBMgr`); the reverse is a mismatch.
      const autoAdmitsManaged = d.cap?.kind === "autoManaged" && impl.cap?.kind === "managed";
      if (found !== expected && !autoAdmitsManaged)
        fail(
          "EvalError",
          `Defmeta mismatch with ${iface.fq}: found ${found}, expected ${expected}`,
          impl.span,
        );
    }
  }
}

/**
 * Compiles a module or interface form. `record` carries the hash, code and
 * header facts; the caller completes its deps and constants afterwards.
 */
export function compileModule(
  node: Sexp,
  env: ModuleCompileEnv,
  record: ModuleRecord,
): CompiledModule {
  return new ModuleCompiler(moduleHeader(node), env, record).compile();
}
