/**
 * The memory size of a module as the reference charges its installation
 * (Pact 4.13 `fullyQualifyDefs`): the `SizeOf` of each member's compiled term
 * once its names are resolved. The terms are the reference compiler's
 * (`Pact.Compile`), built here from Weft's parse tree: applications, special
 * forms (`let`, `let*`, `cond`, `with-capability`, `lambda`, bindings), list
 * and object literals, definitions with their types, metadata and `@model`
 * expressions, defpact steps; the fresh type variables the compiler names for
 * untyped arguments, returns and list literals (`a`, `b`, …, `aa`, …) are
 * numbered through the module's form. A bound variable sits under one layer
 * per scope between it and its binder; a free one under one layer per scope
 * it is in, holding what it resolved to:
 * - a native: the native's whole term, with its documentation, examples and
 *   function types (`natives/nativeDocFacts.ts`), at every reference;
 * - one of the module's functions: a fully qualified name (with the hash);
 * - one of its schemas, tables or constants: that member's term (a
 *   constant's evaluated value), inlined at every reference;
 * - a module or interface: a module reference; another module's schema: its term.
 * A module calling other modules' functions also pays for their exports;
 * that, dynamic references and other shapes not modelled here give null.
 * @module
 */

import { decodeHash } from "../../encoding/base64url.ts";
import {
  NATIVE_CONSTANT_FACTS,
  NATIVE_DOC_FACTS,
  NATIVE_SCHEMA_FACTS,
  type NativeFunTypeFact,
} from "../natives/nativeDocFacts.ts";
import { parseProgram } from "../syntax/parser.ts";
import type { AtomNode, ParseNode, TypeAnn } from "../syntax/parseTree.ts";
import type { PactValue } from "../values/value.ts";
import { type ModuleHeader, moduleHeader } from "./compileModule.ts";
import { freshTypeVarName, type Meta, metaSize, readMeta } from "./moduleMemory.ts";
import {
  byteStringSize,
  constructorCost as cc,
  fieldSize,
  integerSize,
  moduleNameSize,
  type SizeOfVersion,
  textSize,
  WORD,
} from "./sizeOf.ts";

const f = fieldSize;

/** A Haskell list of elements of these sizes. */
function list(items: readonly number[]): number {
  let s = (1 + 3 * items.length) * WORD;
  for (const x of items) s += x;
  return s;
}

/** A `Vector` of elements of these sizes. */
function vector(items: readonly number[]): number {
  let s = (7 + items.length) * WORD;
  for (const x of items) s += x;
  return s;
}

function maybe(s: number | null): number {
  return s === null ? cc(0) : cc(1) + s;
}

/**
 * A module's `Hash`, a 32-byte short bytestring sized as a `ByteString`: by
 * the UTF-8 characters its bytes decode to, not by its bytes (so coin v5's
 * hash is 30 "characters", v6's 28). Every fully qualified name and table
 * holds one.
 */
function hashSize(hash: string): number {
  return byteStringSize(decodeHash(hash, "module hash"));
}
const TY_ANY = WORD;
const TY_PRIM = WORD + f(0);

/** One scope layer around a free or outer variable: `TVar (F …)`. */
const SCOPE_LAYER = cc(2) + cc(1);
/** `TVar (B i)`: the variable and the index. */
const BOUND_VAR = cc(2) + cc(1) + 2 * WORD;

/**
 * The layer `liftTerm` puts around a constant's evaluated value,
 * `TVar (Direct value)`: the constant holds it so, and every reference to the
 * constant inlines it so.
 */
const LIFTED = cc(2) + cc(1);

class Unsupported extends Error {}

function unsupported(): never {
  throw new Unsupported();
}

/* ---------------------------------------------------------------- natives */

/** Reads a type as the reference prints it (`<a[integer,decimal]>`, `object:~<{row}>`, `x:<a> -> bool`). */
class PrintedType {
  private i = 0;
  private readonly s: string;

  constructor(s: string) {
    this.s = s;
  }

  static size(s: string): number {
    const p = new PrintedType(s);
    const n = p.type();
    if (p.i !== s.length) unsupported();
    return n;
  }

  private eat(t: string): boolean {
    if (this.s.startsWith(t, this.i)) {
      this.i += t.length;
      return true;
    }
    return false;
  }

  private name(stop: string): string {
    const start = this.i;
    while (this.i < this.s.length && !stop.includes(this.s[this.i] as string)) this.i++;
    return this.s.slice(start, this.i);
  }

  type(): number {
    const arrow = topLevelArrow(this.s, this.i);
    if (arrow >= 0) {
      // A function type: `name:type …  -> ret` (an argument of a native).
      const args: number[] = [];
      const argText = this.s.slice(this.i, arrow).trim();
      for (const a of argText === "" ? [] : splitTopLevel(argText, " ")) {
        const colon = a.indexOf(":");
        args.push(
          WORD + f(textSize(a.slice(0, colon))) + f(PrintedType.size(a.slice(colon + 1))) + f(0),
        );
      }
      this.i = arrow + 4;
      const ret = this.type();
      return WORD + f(WORD + f(list(args)) + f(ret));
    }
    if (this.eat("[")) {
      const elem = this.type();
      if (!this.eat("]")) unsupported();
      return WORD + f(elem);
    }
    if (this.eat("*")) return TY_ANY;
    if (this.eat("<{")) {
      const n = this.name("}");
      if (!this.eat("}>")) unsupported();
      return WORD + f(WORD + f(textSize(n)));
    }
    if (this.eat("<")) {
      const n = this.name("[>");
      const cs: number[] = [];
      if (this.eat("[")) {
        for (;;) {
          cs.push(this.type());
          if (this.eat("]")) break;
          if (!this.eat(",")) unsupported();
        }
      }
      if (!this.eat(">")) unsupported();
      return WORD + f(WORD + f(textSize(n)) + f(list(cs)));
    }
    if (this.eat("{")) {
      const n = this.name("}");
      if (!this.eat("}")) unsupported();
      return WORD + f(nativeSchemaSize(n));
    }
    for (const k of ["object:", "table:", "binding:"]) {
      if (this.eat(k)) {
        this.eat("~");
        return WORD + f(0) + f(this.type()) + f(WORD);
      }
    }
    if (this.eat("module{}")) return WORD + f(cc(1) + list([]));
    if (this.eat("module")) return WORD + f(cc(0));
    for (const p of ["integer", "decimal", "time", "bool", "string", "keyset", "guard"]) {
      if (this.eat(p)) return TY_PRIM;
    }
    return unsupported();
  }
}

function topLevelArrow(s: string, from: number): number {
  let depth = 0;
  for (let i = from; i < s.length; i++) {
    const c = s[i];
    if (c === "<" || c === "[" || c === "{") depth++;
    else if (c === ">" || c === "]" || c === "}") depth--;
    else if (depth === 0 && s.startsWith(" -> ", i)) return i;
  }
  return -1;
}

function splitTopLevel(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "<" || c === "[" || c === "{") depth++;
    else if (c === ">" || c === "]" || c === "}") depth--;
    else if (depth === 0 && c === sep) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

function docMetaSize(docLength: number): number {
  // Meta (Just doc) []: the text sized by its length alone.
  return WORD + f(cc(1) + 6 * WORD + 2 * docLength) + f(list([]));
}

/** `TSchema` of a native schema (`public-chain-data`): no module, documented fields. */
function nativeSchemaSize(name: string): number {
  const fact = NATIVE_SCHEMA_FACTS[name];
  if (fact === undefined) return unsupported();
  const fields = fact[1].map(([n, t]) => WORD + f(textSize(n)) + f(PrintedType.size(t)) + f(0));
  return cc(5) + textSize(name) + cc(0) + docMetaSize(fact[0]) + list(fields);
}

function funTypeSize([args, ret]: NativeFunTypeFact): number {
  const a = args.map(([n, t]) => WORD + f(textSize(n)) + f(PrintedType.size(t)) + f(0));
  return WORD + f(list(a)) + f(PrintedType.size(ret));
}

const nativeSizes = new Map<string, number | null>();

/** The term a native name resolves to (`TNative`, or a native constant's `TConst`), or null. */
export function nativeTermSize(name: string, ver: SizeOfVersion = 1): number | null {
  const key = `${ver}${name}`;
  const known = nativeSizes.get(key);
  if (known !== undefined) return known;
  let size: number | null = null;
  try {
    const fact = NATIVE_DOC_FACTS[name];
    const constant = NATIVE_CONSTANT_FACTS[name];
    if (fact !== undefined) {
      const [docs, examples, types] = fact;
      const [first, ...rest] = types.map(funTypeSize);
      const funTypes = cc(2) + (first ?? unsupported()) + list(rest);
      const exs = list(examples.map((n) => WORD + f(6 * WORD + 2 * n)));
      // TNative: name, function, types, examples, docs, top-level flag, info.
      size = cc(7) + textSize(name) + funTypes + exs + 6 * WORD + 2 * docs + WORD;
    } else if (constant !== undefined) {
      const lit = cc(2) + cc(1) + integerSize(ver, constant[1]);
      const arg = WORD + f(textSize(name)) + f(TY_PRIM) + f(0);
      size = cc(5) + arg + cc(0) + (WORD + f(lit) + f(lit)) + docMetaSize(constant[0]);
    } else if (NATIVE_SCHEMA_FACTS[name] !== undefined) {
      size = nativeSchemaSize(name);
    }
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    size = null;
  }
  nativeSizes.set(key, size);
  return size;
}

/* ---------------------------------------------------------------- modules */

/** What the sizer needs to know of another module or interface. */
export type OtherModule = {
  readonly kind: "module" | "interface";
  readonly namespace: string | null;
  readonly name: string;
  /** The interfaces a module implements (fully qualified names). */
  readonly interfaces: readonly string[];
  readonly code: string;
  /** Its hash (unpadded base64url). */
  readonly hash: string;
};

export type ModuleSizeEnv = {
  readonly ver: SizeOfVersion;
  /** The namespace the module is declared in. */
  readonly namespace: string | null;
  /** The module's hash (unpadded base64url), held by its qualified names and tables. */
  readonly hash: string;
  /** The interfaces it implements (fully qualified names). */
  readonly interfaces: readonly string[];
  /** Its constants' values. */
  readonly consts: ReadonlyMap<string, PactValue>;
  /** Another module by its name as written, or null. */
  findModule(written: readonly string[]): OtherModule | null;
};

type Form = "defun" | "defcap" | "defpact" | "defconst" | "defschema" | "deftable";
const FORMS = new Set<string>(["defun", "defcap", "defpact", "defconst", "defschema", "deftable"]);

/** A size and the members inlined into it, each reference counted. */
type Sized = { structure: number; readonly inlined: string[] };

type Member = {
  readonly form: Form;
  readonly name: string;
  readonly items: readonly ParseNode[];
  /** Filled by the first pass. */
  sized: Sized | null;
  /** Constants: the raw value's node (for the evaluated value's shape) and list types. */
  valueNode: ParseNode | null;
};

function isAtom(n: ParseNode | undefined, name?: string): n is AtomNode {
  return (
    n !== undefined &&
    n.kind === "atom" &&
    (name === undefined || (n.parts.length === 1 && n.parts[0] === name))
  );
}

const SPECIAL = new Set(["let", "let*", "with-capability", "lambda", "cond"]);

class ModuleSizer {
  fresh = 0;
  readonly members = new Map<string, Member>();
  /** The type variable sizes the list literals of constants got, by node. */
  readonly listTypes = new Map<ParseNode, number>();
  private current: Sized = { structure: 0, inlined: [] };
  private readonly resolved = new Map<string, number>();
  private readonly moduleName: number;
  private readonly hash: number;

  readonly header: ModuleHeader;
  readonly env: ModuleSizeEnv;

  constructor(header: ModuleHeader, env: ModuleSizeEnv) {
    this.header = header;
    this.env = env;
    this.moduleName = moduleNameSize(env.namespace, header.name);
    this.hash = hashSize(env.hash);
    for (const n of header.body) {
      if (n.kind !== "sexp") continue;
      const h = n.items[0];
      const name = n.items[1];
      if (!isAtom(h) || !FORMS.has(h.parts[0] as string) || !isAtom(name)) continue;
      this.members.set(name.parts[0] as string, {
        form: h.parts[0] as Form,
        name: name.parts[0] as string,
        items: n.items,
        sized: null,
        valueNode: null,
      });
    }
  }

  /* fresh names */

  freshTyVar(): number {
    const name = freshTypeVarName(this.fresh++);
    return WORD + f(WORD + f(textSize(name)) + f(list([])));
  }

  /* leaves */

  /** A free name's leaf (`Ref'`), counting inlined members into the current term. */
  leaf(a: AtomNode): number {
    const parts = a.parts;
    if (parts.length === 1) {
      const n = parts[0] as string;
      const native = nativeTermSize(n, this.env.ver);
      if (native !== null) return 2 * WORD + native;
      const own = this.ownLeaf(n);
      if (own !== null) return own;
      return this.moduleRefLeaf([n]);
    }
    // Own members qualified by the module's name (the reference since Pact 4.8).
    const q = parts.slice(0, -1);
    const last = parts[parts.length - 1] as string;
    const ownQ =
      (q.length === 1 && q[0] === this.header.name) ||
      (q.length === 2 && q[0] === this.env.namespace && q[1] === this.header.name);
    if (ownQ) return this.ownLeaf(last) ?? unsupported();
    const other = this.env.findModule(q);
    if (other === null) return this.moduleRefLeaf(parts);
    return otherSchemaLeaf(other, last, this.env) ?? unsupported();
  }

  ownLeaf(n: string): number | null {
    const m = this.members.get(n);
    if (m === undefined) return null;
    switch (m.form) {
      case "defun":
      case "defcap":
      case "defpact": {
        // Direct (TVar (FQName (FullyQualifiedName name module hash))).
        const fqn = WORD + f(textSize(n)) + f(this.moduleName) + f(this.hash);
        return 2 * WORD + cc(2) + cc(1) + fqn;
      }
      default:
        this.current.inlined.push(n);
        return 2 * WORD;
    }
  }

  moduleRefLeaf(written: readonly string[]): number {
    let name: number;
    let spec: number | null;
    const m =
      written.length === 1 && written[0] === this.header.name ? null : this.env.findModule(written);
    if (written.length === 1 && written[0] === this.header.name) {
      // The module itself, with the interfaces it implements.
      name = this.moduleName;
      spec =
        this.header.kind === "interface"
          ? null
          : list(this.env.interfaces.map(qualifiedModuleSize));
    } else if (m !== null) {
      name = moduleNameSize(m.namespace, m.name);
      spec = m.kind === "interface" ? null : list(m.interfaces.map(qualifiedModuleSize));
    } else return unsupported();
    // Ref (TModRef (ModRef name spec info) info).
    return 2 * WORD + cc(2) + cc(1) + name + maybe(spec);
  }

  /* types */

  /** A type annotation at scope depth `depth` (or a fresh variable for none). */
  type(t: TypeAnn | null, depth: number): number {
    if (t === null) return this.freshTyVar();
    const userVar = (schema: string) => {
      const parts = schema.split(".");
      const leaf = this.leaf({ kind: "atom", parts, type: null, span: NO_SPAN });
      return WORD + f(this.freeVar(depth, leaf));
    };
    switch (t.kind) {
      case "list":
        return WORD + f(t.elem === null ? TY_ANY : this.type(t.elem, depth));
      case "object":
        if (t.user === true && t.schema !== null) return userVar(t.schema);
        return WORD + f(0) + f(t.schema === null ? TY_ANY : userVar(t.schema)) + f(WORD);
      case "table":
        return WORD + f(0) + f(t.schema === null ? TY_ANY : userVar(t.schema)) + f(WORD);
      case "module": {
        const vars = t.interfaces.map((i) => this.freeVar(depth, this.moduleRefLeaf(i.split("."))));
        return WORD + f(cc(1) + list(vars));
      }
      case "any":
        return TY_ANY;
      default:
        return TY_PRIM;
    }
  }

  /** `Arg`: name, type, info. */
  arg(a: ParseNode, depth: number): number {
    if (!isAtom(a) || a.parts.length !== 1) return unsupported();
    return WORD + f(textSize(a.parts[0] as string)) + f(this.type(a.type, depth)) + f(0);
  }

  /* terms */

  freeVar(depth: number, leaf: number): number {
    return depth * SCOPE_LAYER + cc(2) + leaf;
  }

  literal(n: ParseNode): number | null {
    const ver = this.env.ver;
    switch (n.kind) {
      case "string":
      case "symbol":
        return cc(2) + cc(1) + textSize(n.value);
      case "integer":
        return cc(2) + cc(1) + integerSize(ver, n.value);
      case "decimal":
        return cc(2) + cc(1) + cc(2) + 2 * WORD + integerSize(ver, n.value.mantissa);
      case "bool":
        return cc(2) + cc(1);
      default:
        return null;
    }
  }

  /** A value-level expression in `scopes` (innermost first), at depth `scopes.length`. */
  expr(n: ParseNode, scopes: readonly (readonly string[])[]): number {
    const lit = this.literal(n);
    if (lit !== null) return lit;
    const depth = scopes.length;
    switch (n.kind) {
      case "atom": {
        if (n.parts.length === 1) {
          const name = n.parts[0] as string;
          for (let k = 0; k < scopes.length; k++) {
            if ((scopes[k] as readonly string[]).includes(name)) return k * SCOPE_LAYER + BOUND_VAR;
          }
        }
        return this.freeVar(depth, this.leaf(n));
      }
      case "list": {
        const items = n.items.map((x) => this.expr(x, scopes));
        const ty = this.freshTyVar();
        this.listTypes.set(n, ty);
        return cc(3) + vector(items) + ty;
      }
      case "object": {
        const keys: number[] = [];
        const byKey = new Map<string, number>();
        for (const e of n.entries) {
          if (e.key.kind !== "string" && e.key.kind !== "symbol") return unsupported();
          keys.push(textSize(e.key.value));
          byKey.set(e.key.value, this.expr(e.value, scopes));
        }
        let map = 6 * WORD * byKey.size;
        for (const [k, v] of byKey) map += textSize(k) + v;
        // Object: map, type (TyAny), key order, info.
        return cc(2) + WORD + f(map) + f(TY_ANY) + f(cc(1) + list(keys)) + f(0);
      }
      case "sexp":
        return this.sexp(n.items, scopes);
      default:
        return unsupported();
    }
  }

  /** `TList body TyAny`. */
  body(nodes: readonly ParseNode[], scopes: readonly (readonly string[])[]): number {
    if (nodes.length === 0) return unsupported();
    return cc(3) + vector(nodes.map((x) => this.expr(x, scopes))) + TY_ANY;
  }

  sexp(items: readonly ParseNode[], scopes: readonly (readonly string[])[]): number {
    const head = items[0];
    if (!isAtom(head)) return unsupported();
    const depth = scopes.length;
    const h = head.parts.length === 1 ? (head.parts[0] as string) : "";
    if (SPECIAL.has(h)) return this.special(h, items, scopes);
    const fn = this.expr(head, scopes);
    const args: number[] = [];
    for (let i = 1; i < items.length; i++) {
      const a = items[i] as ParseNode;
      if (a.kind === "binding") {
        // The binding takes the rest of the application as its body.
        const names: string[] = [];
        const pairs: number[] = [];
        for (const e of a.entries) {
          const col = this.expr(e.key, scopes);
          const arg = this.arg(e.name, depth);
          names.push(e.name.parts[0] as string);
          pairs.push(WORD + f(arg) + f(col));
        }
        const body = this.body(items.slice(i + 1), [names, ...scopes]);
        args.push(cc(4) + list(pairs) + body + (WORD + f(TY_ANY)) + 0);
        break;
      }
      args.push(this.expr(a, scopes));
    }
    return this.app(fn, args);
  }

  app(fn: number, args: readonly number[]): number {
    // TApp (App fun args info) info.
    return cc(2) + WORD + f(fn) + f(list(args)) + f(0);
  }

  nativeVar(name: string, depth: number): number {
    const native = nativeTermSize(name, this.env.ver);
    if (native === null) return unsupported();
    return this.freeVar(depth, 2 * WORD + native);
  }

  /** `let` bindings: each argument (typed, or a fresh variable) then its value. */
  bindings(
    n: ParseNode | undefined,
    scopesOf: (i: number) => readonly (readonly string[])[],
  ): { names: string[]; pairs: number[] } {
    if (n === undefined || n.kind !== "sexp") return unsupported();
    const names: string[] = [];
    const pairs: number[] = [];
    n.items.forEach((b, i) => {
      if (b.kind !== "sexp" || b.items.length !== 2) unsupported();
      const [a, v] = b.items as [ParseNode, ParseNode];
      const s = scopesOf(i);
      const arg = this.arg(a, s.length);
      const value = this.expr(v, s);
      names.push((a as AtomNode).parts[0] as string);
      pairs.push(WORD + f(arg) + f(value));
    });
    return { names, pairs };
  }

  special(h: string, items: readonly ParseNode[], scopes: readonly (readonly string[])[]): number {
    const depth = scopes.length;
    switch (h) {
      case "let": {
        const { names, pairs } = this.bindings(items[1], () => scopes);
        const body = this.body(items.slice(2), [names, ...scopes]);
        return cc(4) + list(pairs) + body + WORD + 0;
      }
      case "let*": {
        const b = items[1];
        if (b === undefined || b.kind !== "sexp" || b.items.length === 0) return unsupported();
        // Nested lets, one binding each; the arguments and values are read first, in order.
        const names: string[] = [];
        const pairs: number[] = [];
        b.items.forEach((bi, i) => {
          if (bi.kind !== "sexp" || bi.items.length !== 2) unsupported();
          const [a, v] = bi.items as [ParseNode, ParseNode];
          const s = [
            ...names
              .slice(0, i)
              .map((x) => [x])
              .reverse(),
            ...scopes,
          ];
          const arg = this.arg(a, s.length);
          const value = this.expr(v, s);
          names.push((a as AtomNode).parts[0] as string);
          pairs.push(WORD + f(arg) + f(value));
        });
        const inner = [...names.map((x) => [x]).reverse(), ...scopes];
        let t = this.body(items.slice(2), inner);
        for (let i = names.length - 1; i >= 0; i--) {
          const scope = i === names.length - 1 ? t : cc(3) + vector([t]) + TY_ANY;
          t = cc(4) + list([pairs[i] as number]) + scope + WORD + 0;
        }
        return t;
      }
      case "cond": {
        const clauses = items.slice(1, -1);
        const conds = clauses.map((c) => {
          if (c.kind !== "sexp" || c.items.length !== 2) return unsupported();
          return [
            this.expr(c.items[0] as ParseNode, scopes),
            this.expr(c.items[1] as ParseNode, scopes),
          ];
        });
        const last = items[items.length - 1];
        if (last === undefined || clauses.length === 0) return unsupported();
        let t = this.expr(last, scopes);
        for (let i = conds.length - 1; i >= 0; i--) {
          const [c, a] = conds[i] as [number, number];
          t = this.app(this.nativeVar("if", depth), [c, a, t]);
        }
        return t;
      }
      case "with-capability": {
        const wc = this.nativeVar("with-capability", depth);
        const cap = items[1];
        if (cap === undefined || cap.kind !== "sexp") return unsupported();
        const capApp = this.sexp(cap.items, scopes);
        const body = this.body(items.slice(2), scopes);
        return this.app(wc, [capApp, body]);
      }
      case "lambda": {
        // The lambda's name is a fresh "`afN", then its type variable, then its arguments.
        const n = this.fresh++;
        const name = textSize(`\`af${n}`);
        const tv = this.freshTyVar();
        const argsNode = items[1];
        if (argsNode === undefined || argsNode.kind !== "sexp") return unsupported();
        const args = argsNode.items.map((a) => this.arg(a, depth));
        const names = argsNode.items.map((a) => (a as AtomNode).parts[0] as string);
        const body = this.body(items.slice(2), [names, ...scopes]);
        const funType = WORD + f(list(args)) + f(tv);
        return cc(2) + WORD + f(name) + f(funType) + f(body) + f(0);
      }
      default:
        return unsupported();
    }
  }

  /* members */

  /** Runs `fn` collecting the members it inlines. */
  sized(fn: () => number): Sized {
    const saved = this.current;
    this.current = { structure: 0, inlined: [] };
    try {
      this.current.structure = fn();
      return this.current;
    } finally {
      this.current = saved;
    }
  }

  meta(items: readonly ParseNode[], i: number, bareDocMayEnd: boolean): [Meta, number] {
    return readMeta(items, i, bareDocMayEnd);
  }

  member(m: Member): number {
    const items = m.items;
    const ver = this.env.ver;
    const nameAtom = items[1] as AtomNode;
    switch (m.form) {
      case "defun":
      case "defcap":
      case "defpact": {
        const ret = this.type(nameAtom.type, 0);
        const argsNode = items[2];
        if (argsNode === undefined || argsNode.kind !== "sexp") return unsupported();
        const args = argsNode.items.map((a) => this.arg(a, 0));
        const names = argsNode.items.map((a) => (a as AtomNode).parts[0] as string);
        const [meta, next] = this.meta(items, 3, false);
        let i = next;
        let defMeta: number | null = null;
        if (m.form === "defcap") {
          if (isAtom(items[i], "@event")) {
            defMeta = WORD + f(WORD);
            i++;
          } else if (isAtom(items[i], "@managed")) {
            const p = items[i + 1];
            const mgr = items[i + 2];
            let managed: number | null = null;
            if (isAtom(p) && isAtom(mgr) && i + 3 < items.length) {
              managed = cc(3) + textSize(p.parts.join(".")) + this.freeVar(0, this.leaf(mgr));
              i += 3;
            } else i++;
            defMeta = WORD + f(WORD + f(maybe(managed)));
          }
        }
        let body: number;
        if (i >= items.length && this.header.kind === "interface") {
          // A signature: an empty body.
          body = cc(3) + vector([]) + TY_ANY;
        } else if (m.form === "defpact") {
          const steps = items.slice(i).map((s) => this.step(s, [names]));
          if (steps.length === 0) return unsupported();
          body = cc(3) + vector(steps) + TY_ANY;
        } else body = this.body(items.slice(i), [names]);
        const funType = WORD + f(list(args)) + f(ret);
        const def =
          WORD +
          f(textSize(m.name)) +
          f(this.moduleName) +
          f(0) +
          f(funType) +
          f(body) +
          f(metaSize(ver, meta)) +
          f(maybe(defMeta)) +
          f(0);
        return cc(2) + def;
      }
      case "defconst": {
        const arg = this.arg(nameAtom, 0);
        const v = items[2];
        if (v === undefined) return unsupported();
        const raw = this.expr(v, []);
        m.valueNode = v;
        const [meta] = this.meta(items, 3, true);
        // The evaluated value is added when the members are resolved.
        return cc(5) + arg + cc(1) + this.moduleName + (WORD + f(raw) + WORD) + metaSize(ver, meta);
      }
      case "defschema": {
        const [meta, next] = this.meta(items, 2, true);
        const fields = items.slice(next).map((a) => this.arg(a, 0));
        return (
          cc(5) + textSize(m.name) + cc(1) + this.moduleName + metaSize(ver, meta) + list(fields)
        );
      }
      case "deftable": {
        const ty = nameAtom.type === null ? TY_ANY : this.type(nameAtom.type, 0);
        const [meta] = this.meta(items, 2, true);
        return cc(6) + textSize(m.name) + this.moduleName + this.hash + ty + metaSize(ver, meta);
      }
      default: {
        const never: never = m.form;
        return never;
      }
    }
  }

  step(s: ParseNode, scopes: readonly (readonly string[])[]): number {
    if (s.kind !== "sexp" || !isAtom(s.items[0])) return unsupported();
    const kind = (s.items[0] as AtomNode).parts[0];
    let rest = s.items.slice(1);
    let meta = WORD + f(cc(0)) + f(list([]));
    if (isAtom(rest[0], "@model") && rest[1] !== undefined && rest[1].kind === "list") {
      meta = metaSize(this.env.ver, { doc: null, models: rest[1].items });
      rest = rest.slice(2);
    }
    let entity: number | null = null;
    let exec: number;
    let rollback: number | null = null;
    if (kind === "step" && (rest.length === 1 || rest.length === 2)) {
      if (rest.length === 2) entity = this.expr(rest[0] as ParseNode, scopes);
      exec = this.expr(rest[rest.length - 1] as ParseNode, scopes);
    } else if (kind === "step-with-rollback" && (rest.length === 2 || rest.length === 3)) {
      if (rest.length === 3) entity = this.expr(rest[0] as ParseNode, scopes);
      exec = this.expr(rest[rest.length - 2] as ParseNode, scopes);
      rollback = this.expr(rest[rest.length - 1] as ParseNode, scopes);
    } else return unsupported();
    const step = WORD + f(maybe(entity)) + f(exec) + f(maybe(rollback)) + f(0);
    return cc(3) + step + meta + 0;
  }

  /* the evaluated value of a constant, as a term */

  valueTerm(node: ParseNode | null, v: PactValue): number {
    if (node !== null) {
      const lit = this.literal(node);
      if (lit !== null) return lit;
      if (node.kind === "list" && v.kind === "list" && node.items.length === v.items.length) {
        const ty = this.listTypes.get(node) ?? unsupported();
        return (
          cc(3) + vector(node.items.map((x, i) => this.valueTerm(x, v.items[i] as PactValue))) + ty
        );
      }
      if (node.kind === "atom") {
        if (node.parts.length === 1) {
          const c = NATIVE_CONSTANT_FACTS[node.parts[0] as string];
          if (c !== undefined) return cc(2) + cc(1) + integerSize(this.env.ver, c[1]);
          const own = this.members.get(node.parts[0] as string);
          // Reducing a reference to a constant reads through its lifted value.
          if (own?.form === "defconst") return this.constValue(own) - LIFTED;
        }
        return unsupported();
      }
    }
    // A value a native made: literals, lists of them (typed `TyAny`).
    switch (v.kind) {
      case "string":
        return cc(2) + cc(1) + textSize(v.value);
      case "integer":
        return cc(2) + cc(1) + integerSize(this.env.ver, v.value);
      case "decimal":
        return cc(2) + cc(1) + cc(2) + 2 * WORD + integerSize(this.env.ver, v.value.mantissa);
      case "bool":
        return cc(2) + cc(1);
      case "list":
        return cc(3) + vector(v.items.map((x) => this.valueTerm(null, x))) + TY_ANY;
      default:
        return unsupported();
    }
  }

  /** A constant's evaluated value as the reference keeps it: lifted (`liftTerm`). */
  constValue(m: Member): number {
    const v = this.env.consts.get(m.name);
    if (v === undefined) return unsupported();
    return LIFTED + this.valueTerm(m.valueNode, v);
  }

  /** A member's term with what it inlines (recursively). */
  resolvedSize(name: string, path: readonly string[]): number {
    const known = this.resolved.get(name);
    if (known !== undefined) return known;
    if (path.includes(name)) return unsupported();
    const m = this.members.get(name);
    if (m === undefined || m.sized === null) return unsupported();
    let s = m.sized.structure;
    for (const r of m.sized.inlined) s += this.inlinedSize(r, [...path, name]);
    if (m.form === "defconst") s += this.constValue(m);
    this.resolved.set(name, s);
    return s;
  }

  /** What a reference to an own schema, table or constant holds. */
  inlinedSize(name: string, path: readonly string[]): number {
    const m = this.members.get(name);
    if (m === undefined) return unsupported();
    if (m.form === "defconst") {
      for (const r of (m.sized as Sized).inlined) this.resolvedSize(r, [...path, name]);
      return this.constValue(m);
    }
    return this.resolvedSize(name, path);
  }

  private passed = false;

  /** Sizes every member's own structure, in source order (the fresh variables' order). */
  firstPass(): void {
    if (this.passed) return;
    for (const m of this.members.values()) m.sized = this.sized(() => this.member(m));
    this.passed = true;
  }

  total(): number {
    this.firstPass();
    let total = 0;
    // Each definition is stored as a `Ref` of its term.
    for (const m of this.members.values()) total += 2 * WORD + this.resolvedSize(m.name, []);
    return total;
  }

  /** A schema's term as another module's member resolves to it. */
  schemaSize(name: string): number | null {
    const m = this.members.get(name);
    if (m === undefined || m.form !== "defschema") return null;
    this.firstPass();
    return this.resolvedSize(name, []);
  }
}

const NO_SPAN = { file: "", line: 0, column: 0, offset: 0, end: 0 };

function qualifiedModuleSize(fq: string): number {
  const dot = fq.lastIndexOf(".");
  return dot > 0 ? moduleNameSize(fq.slice(0, dot), fq.slice(dot + 1)) : moduleNameSize(null, fq);
}

const otherSizers = new Map<string, ModuleSizer | null>();

/** `Ref (TSchema …)` of another module's schema, or null. */
function otherSchemaLeaf(other: OtherModule, member: string, env: ModuleSizeEnv): number | null {
  const key = `${env.ver} ${other.code}`;
  let sizer = otherSizers.get(key);
  if (sizer === undefined) {
    sizer = null;
    try {
      const node = parseProgram(other.code, "")[0];
      if (node !== undefined && node.kind === "sexp") {
        sizer = new ModuleSizer(moduleHeader(node), {
          ver: env.ver,
          namespace: other.namespace,
          hash: other.hash,
          interfaces: other.interfaces,
          consts: new Map(),
          findModule: env.findModule,
        });
      }
    } catch {
      // Stored code this model cannot read: the caller falls back.
      sizer = null;
    }
    otherSizers.set(key, sizer);
  }
  if (sizer === null) return null;
  try {
    const s = sizer.schemaSize(member);
    return s === null ? null : 2 * WORD + s;
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}

/**
 * The memory size the reference charges for installing the module `header`
 * (its members' compiled terms), or null when the module has a shape this
 * model does not cover.
 */
export function moduleTermsSize(header: ModuleHeader, env: ModuleSizeEnv): number | null {
  try {
    return new ModuleSizer(header, env).total();
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}
