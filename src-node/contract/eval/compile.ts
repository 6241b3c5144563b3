/**
 * The compiler (desugaring phase): parse tree → terms.
 *
 * Gives the special forms their meaning (`let`, `let*` → nested `let`,
 * `lambda`, `cond` → nested `if`), turns a `{ k := v }` argument and the
 * arguments after it into a binding term, resolves local variables to slots,
 * names to natives and (through a {@link NameResolver}) to module members and
 * module references, and folds literal lists and objects into values. A
 * `module`/`interface` form becomes a declaration term carrying its exact
 * source text (its hash is computed from it); module bodies are compiled by
 * compileModule.ts with this same compiler.
 * @module
 */
import { contractFailure } from "../errors.ts";
import type { NativeDef } from "../natives/native.ts";
import { nativeConstants } from "../natives/strings.ts";
import { skipTrivia } from "../syntax/lexer.ts";
import type { AtomNode, ParseNode, TypeAnn } from "../syntax/parseTree.ts";
import { refInfoJson } from "../syntax/refInfo.ts";
import type { Span } from "../syntax/span.ts";
import { makeObject, type PactValue } from "../values/value.ts";
import type { DefCell, Param, Term, TypeSpec } from "./term.ts";

/** Natives by name, as the compiler resolves them. */
export type NativeTable = ReadonlyMap<string, NativeDef>;

/** Resolves names that are neither local nor native: module members and module references. */
export interface NameResolver {
  /** A bare (`f`) or dotted (`m.f`, `ns.m.f`) name; null when nothing defines it. */
  resolve(parts: readonly string[], span: Span): Term | null;
  /** A schema named in a type annotation; null when unknown. */
  schema(name: string): DefCell | null;
}

export type CompileOptions = {
  readonly natives: NativeTable;
  readonly constants?: ReadonlyMap<string, PactValue> | undefined;
  /** The source text the nodes were parsed from (module declarations keep their exact text). */
  readonly source?: string | undefined;
  readonly resolver?: NameResolver | undefined;
  /** Unresolvable names fail at compile time (module code) instead of at evaluation. */
  readonly strictNames?: boolean | undefined;
};

export type Scope = { readonly names: readonly string[]; readonly parent: Scope | null };

const DECLARATION_FORMS = new Set([
  "module",
  "interface",
  "defun",
  "defcap",
  "defpact",
  "defconst",
  "defschema",
  "deftable",
  "use",
  "implements",
  "bless",
  "step",
  "step-with-rollback",
]);

function syntaxError(message: string, span: Span): never {
  throw contractFailure("SyntaxError", message, span);
}

function describeNode(n: ParseNode): string {
  switch (n.kind) {
    case "atom":
      return `'${n.parts.join(".")}'`;
    case "sexp":
      return "an application";
    default:
      return `a ${n.kind}`;
  }
}

export class Compiler {
  private readonly natives: NativeTable;
  private readonly constants: ReadonlyMap<string, PactValue>;
  private readonly source: string | null;
  /**
   * The top-level form being compiled: the reference resolves a top-level
   * form's free names with that form's source position (`enscope`).
   */
  topLevel: ParseNode | null = null;
  private readonly resolver: NameResolver | null;
  private readonly strictNames: boolean;
  /**
   * Set once the result depends on more than the nodes, the natives and the
   * constants: a name the resolver was asked for (a module member, a free
   * name), a schema, a module declaration's source text.
   */
  worldDependent = false;

  constructor(opts: CompileOptions) {
    this.natives = opts.natives;
    this.constants = opts.constants ?? nativeConstants;
    this.source = opts.source ?? null;
    this.resolver = opts.resolver ?? null;
    this.strictNames = opts.strictNames === true;
  }

  param(n: ParseNode, what: string): Param {
    if (n.kind !== "atom" || n.parts.length !== 1)
      syntaxError(`expected ${what} (a name), found ${describeNode(n)}`, n.span);
    const name = n.parts[0] as string;
    if (KEYWORDS.has(name)) syntaxError(`'${name}' is a reserved word and cannot be bound`, n.span);
    return { name, type: n.type === null ? null : this.typeSpec(n.type), span: n.span };
  }

  /** A type annotation with its schema names resolved where the resolver knows them. */
  typeSpec(t: TypeAnn): TypeSpec {
    switch (t.kind) {
      case "list":
        return { kind: "list", elem: t.elem === null ? null : this.typeSpec(t.elem) };
      case "object":
      case "table":
        if (t.schema !== null) this.worldDependent = true;
        return {
          kind: t.kind,
          schemaName: t.schema,
          schema: t.schema === null ? null : (this.resolver?.schema(t.schema) ?? null),
        };
      case "module":
        return { kind: "module", interfaces: t.interfaces };
      default:
        return { kind: t.kind };
    }
  }

  resolve(name: string, scope: Scope | null, span: Span): Term {
    let depth = 0;
    for (let s = scope; s !== null; s = s.parent, depth++) {
      const i = s.names.lastIndexOf(name);
      if (i >= 0) return { kind: "local", depth, index: i, name, span };
    }
    const def = this.natives.get(name);
    if (def !== undefined) return { kind: "native", def, span };
    const constant = this.constants.get(name);
    if (constant !== undefined) return { kind: "lit", value: constant, span };
    return this.resolveGlobal([name], span);
  }

  /** Module members and module references; a `free` term (or a failure) otherwise. */
  resolveGlobal(parts: readonly string[], span: Span): Term {
    this.worldDependent = true;
    const name = parts.join(".");
    const t = this.resolver?.resolve(parts, span) ?? null;
    if (t !== null) {
      if (
        t.kind === "lit" &&
        t.value.kind === "modref" &&
        this.source !== null &&
        this.topLevel !== null
      )
        return { ...t, info: refInfoJson(this.source, this.topLevel.span) };
      return t;
    }
    if (this.strictNames) throw contractFailure("EvalError", `Cannot resolve ${name}`, span);
    return { kind: "free", name, span };
  }

  body(nodes: readonly ParseNode[], scope: Scope | null, form: string, span: Span): Term[] {
    if (nodes.length === 0)
      syntaxError(`${form}: expected a body of one or more expressions`, span);
    return nodes.map((n) => this.expr(n, scope));
  }

  expr(n: ParseNode, scope: Scope | null): Term {
    switch (n.kind) {
      case "integer":
        return { kind: "lit", value: { kind: "integer", value: n.value }, span: n.span };
      case "decimal":
        return { kind: "lit", value: { kind: "decimal", value: n.value }, span: n.span };
      case "string":
      case "symbol":
        return { kind: "lit", value: { kind: "string", value: n.value }, span: n.span };
      case "bool":
        return { kind: "lit", value: { kind: "bool", value: n.value }, span: n.span };
      case "atom":
        if (n.type !== null)
          syntaxError("a type annotation is only allowed where a name is bound", n.span);
        if (n.parts.length > 1) return this.resolveGlobal(n.parts, n.span);
        return this.resolve(n.parts[0] as string, scope, n.span);
      case "dynamic":
        return this.dynamic(n.ref, n.member, n.span, scope);
      case "list": {
        const items = n.items.map((x) => this.expr(x, scope));
        if (items.every((t) => t.kind === "lit" && t.info === undefined)) {
          return {
            kind: "lit",
            value: { kind: "list", items: items.map((t) => (t as { value: PactValue }).value) },
            span: n.span,
          };
        }
        return { kind: "list", items, span: n.span };
      }
      case "object": {
        const keys = n.entries.map((e) => (e.key as { value: string }).value);
        const values = n.entries.map((e) => this.expr(e.value, scope));
        if (values.every((t) => t.kind === "lit" && t.info === undefined)) {
          return {
            kind: "lit",
            value: makeObject(
              keys.map((k, i) => [k, (values[i] as { value: PactValue }).value] as const),
            ),
            span: n.span,
          };
        }
        return { kind: "object", keys, values, span: n.span };
      }
      case "binding":
        return syntaxError(
          "a binding form { key := name } is only allowed as an argument of bind",
          n.span,
        );
      case "sexp":
        return this.sexp(n.items, n.span, scope);
      default: {
        const never: never = n;
        return never;
      }
    }
  }

  dynamic(ref: AtomNode, member: string, span: Span, scope: Scope | null): Term {
    const refName = ref.parts.join(".");
    let refTerm: Term;
    if (ref.parts.length === 1) {
      refTerm = this.resolve(ref.parts[0] as string, scope, ref.span);
    } else {
      this.worldDependent = true;
      refTerm = this.resolver?.resolve(ref.parts, ref.span) ?? {
        kind: "free",
        name: refName,
        span: ref.span,
      };
    }
    return { kind: "dynamic", ref: refTerm, refName, member, span };
  }

  sexp(items: readonly ParseNode[], span: Span, scope: Scope | null): Term {
    const head = items[0];
    if (head === undefined) return syntaxError("expected a function application, found ()", span);
    if (head.kind === "atom" && head.parts.length === 1 && head.type === null) {
      const name = head.parts[0] as string;
      const local = scope !== null && this.isLocal(name, scope);
      if (!local) {
        switch (name) {
          case "let":
            return this.letForm(items, span, scope, false);
          case "let*":
            return this.letForm(items, span, scope, true);
          case "lambda":
            return this.lambdaForm(items, span, scope);
          case "cond":
            return this.condForm(items, span, scope);
          case "module":
          case "interface":
            if (this.strictNames) syntaxError(`${name}: not allowed here`, span);
            if (scope === null) return this.moduleDecl(items, span);
            return { kind: "unsupported", form: name, span };
          case "use":
            if (this.strictNames) syntaxError(`${name}: not allowed here`, span);
            if (scope === null) return this.importForm(items, span);
            return { kind: "unsupported", form: name, span };
          default:
            if (DECLARATION_FORMS.has(name)) {
              if (this.strictNames) syntaxError(`${name}: not allowed here`, span);
              return { kind: "unsupported", form: name, span };
            }
        }
      }
    }
    if (
      head.kind === "atom" &&
      head.type !== null &&
      head.parts.length === 1 &&
      DECLARATION_FORMS.has(head.parts[0] as string)
    ) {
      return { kind: "unsupported", form: head.parts[0] as string, span };
    }
    const fn = this.expr(head, scope);
    const args: Term[] = [];
    for (let i = 1; i < items.length; i++) {
      const a = items[i] as ParseNode;
      if (a.kind === "binding") {
        const params = a.entries.map((e) => this.param(e.name, "a binding variable"));
        const keys = a.entries.map((e) => this.expr(e.key, scope));
        const inner: Scope = { names: params.map((p) => p.name), parent: scope };
        const body = this.body(items.slice(i + 1), inner, "binding", a.span);
        args.push({ kind: "binding", keys, params, body, span: a.span });
        break;
      }
      args.push(this.expr(a, scope));
    }
    return { kind: "app", fn, args, span };
  }

  moduleDecl(items: readonly ParseNode[], span: Span): Term {
    this.worldDependent = true;
    if (this.source === null)
      return syntaxError("module declarations need their source text", span);
    // The hashed text runs to the next token: trailing whitespace and comments included (§9.3).
    const end = skipTrivia(this.source, span.end);
    return {
      kind: "moduleDecl",
      node: { kind: "sexp", items, span },
      code: this.source.slice(span.offset, end),
      span,
    };
  }

  importForm(items: readonly ParseNode[], span: Span): Term {
    const invalid = (message: string, at: Span): Term => ({ kind: "invalid", message, span: at });
    const [, mod, a, b, extra] = items;
    if (mod === undefined || mod.kind !== "atom" || mod.type !== null || extra !== undefined)
      return invalid('use: expected (use MODULE ["HASH"] [[names…]])', span);
    let hash: string | null = null;
    let list: ParseNode | undefined;
    if (a !== undefined && (a.kind === "string" || a.kind === "symbol")) {
      hash = a.value;
      list = b;
    } else {
      if (b !== undefined) return invalid("use: expected the hash before the import list", b.span);
      list = a;
    }
    let imports: string[] | null = null;
    if (list !== undefined) {
      if (list.kind !== "list")
        return invalid("use: expected a literal hash and/or a list of names to import", list.span);
      imports = [];
      for (const x of list.items) {
        if (x.kind !== "atom" || x.parts.length !== 1 || x.type !== null)
          return invalid("use: import lists contain bare names", x.span);
        imports.push(x.parts[0] as string);
      }
      if (imports.length === 0 && hash === null)
        return invalid("use: an empty import list needs a module hash", list.span);
    }
    return { kind: "use", module: mod.parts.join("."), hash, imports, span };
  }

  isLocal(name: string, scope: Scope): boolean {
    for (let s: Scope | null = scope; s !== null; s = s.parent)
      if (s.names.includes(name)) return true;
    return false;
  }

  letForm(items: readonly ParseNode[], span: Span, scope: Scope | null, sequential: boolean): Term {
    const form = sequential ? "let*" : "let";
    const bindings = items[1];
    if (bindings === undefined || bindings.kind !== "sexp") {
      return syntaxError(
        `${form}: expected a list of bindings ((name value) …)`,
        bindings?.span ?? span,
      );
    }
    const pairs = bindings.items.map((b) => {
      if (b.kind !== "sexp" || b.items.length !== 2) {
        return syntaxError(
          `${form}: expected a binding (name value), found ${describeNode(b)}`,
          b.span,
        );
      }
      return {
        param: this.param(b.items[0] as ParseNode, `a ${form} variable`),
        value: b.items[1] as ParseNode,
      };
    });
    const bodyNodes = items.slice(2);
    if (bodyNodes.length === 0)
      syntaxError(`${form}: expected a body of one or more expressions`, span);
    if (!sequential || pairs.length <= 1) {
      const values = pairs.map((p) => this.expr(p.value, scope));
      const params = pairs.map((p) => p.param);
      const inner: Scope = { names: params.map((p) => p.name), parent: scope };
      return { kind: "let", params, values, body: this.body(bodyNodes, inner, form, span), span };
    }
    // let* = nested single-binding lets
    const build = (i: number, s: Scope | null): Term => {
      const p = pairs[i] as { param: Param; value: ParseNode };
      const value = this.expr(p.value, s);
      const inner: Scope = { names: [p.param.name], parent: s };
      const body =
        i === pairs.length - 1 ? this.body(bodyNodes, inner, form, span) : [build(i + 1, inner)];
      return { kind: "let", params: [p.param], values: [value], body, span };
    };
    return build(0, scope);
  }

  lambdaForm(items: readonly ParseNode[], span: Span, scope: Scope | null): Term {
    const ps = items[1];
    if (ps === undefined || ps.kind !== "sexp")
      return syntaxError("lambda: expected a parameter list (x y …)", ps?.span ?? span);
    const params = ps.items.map((p) => this.param(p, "a lambda parameter"));
    const inner: Scope = { names: params.map((p) => p.name), parent: scope };
    return {
      kind: "lambda",
      params,
      ret: null,
      body: this.body(items.slice(2), inner, "lambda", span),
      span,
    };
  }

  condForm(items: readonly ParseNode[], span: Span, scope: Scope | null): Term {
    const clauses = items.slice(1);
    const last = clauses[clauses.length - 1];
    if (last === undefined)
      return syntaxError("cond: expected clauses (test result) … and a default", span);
    const ifDef = this.natives.get("if");
    if (ifDef === undefined) return syntaxError("cond: 'if' is not available", span);
    let acc = this.expr(last, scope);
    for (let i = clauses.length - 2; i >= 0; i--) {
      const c = clauses[i] as ParseNode;
      if (c.kind !== "sexp" || c.items.length !== 2) {
        return syntaxError(
          `cond: expected a clause (test result), found ${describeNode(c)}`,
          c.span,
        );
      }
      acc = {
        kind: "app",
        fn: { kind: "native", def: ifDef, span: c.span },
        args: [
          this.expr(c.items[0] as ParseNode, scope),
          this.expr(c.items[1] as ParseNode, scope),
          acc,
        ],
        span: c.span,
      };
    }
    return acc;
  }
}

/** Words the reference's compiler reserves (§1.1). */
const KEYWORDS = new Set([
  "bless",
  "defconst",
  "defpact",
  "defschema",
  "deftable",
  "defun",
  "defcap",
  "implements",
  "interface",
  "let",
  "let*",
  "lambda",
  "module",
  "step",
  "step-with-rollback",
  "use",
  "with-capability",
  "cond",
]);

/**
 * Compiles one top-level form.
 * @throws {ContractError} a SyntaxError failure for malformed special forms.
 */
/**
 * Terms of top-level forms that depend on their nodes and natives alone (no
 * module member, free name, schema or declaration), by node: a program
 * parsed once (execute.ts keeps recent parse trees) compiles once. Terms are
 * never changed after compilation.
 */
const pureTerms = new WeakMap<NativeTable, WeakMap<ParseNode, Term>>();

export function compileTopLevel(
  node: ParseNode,
  natives: NativeTable,
  opts: Omit<CompileOptions, "natives"> = {},
): Term {
  const cacheable = opts.constants === undefined && opts.strictNames !== true;
  const known = cacheable ? pureTerms.get(natives)?.get(node) : undefined;
  if (known !== undefined) return known;
  const c = new Compiler({ ...opts, natives });
  c.topLevel = node;
  const term = c.expr(node, null);
  if (cacheable && !c.worldDependent) {
    let byNode = pureTerms.get(natives);
    if (byNode === undefined) {
      byNode = new WeakMap();
      pureTerms.set(natives, byNode);
    }
    byNode.set(node, term);
  }
  return term;
}
