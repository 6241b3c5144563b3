/**
 * The memory size of an interface as the reference charges it (Pact 4.13
 * `evaluateDefs` with the inline memory check): the `SizeOf` of each member's
 * compiled term, and, for each reference to another member (a schema in a
 * type, a `@managed` manager, a constant), the size of that member's term
 * again (the reference inlines it). The terms are the reference compiler's
 * (`Pact.Compile`) built from Weft's parse tree: definitions, function types,
 * metadata with their model expressions, defcap metadata, and the fresh type
 * variables it names for untyped arguments and returns (`a`, `b`, …, `aa`, …),
 * counted through the module's form.
 * @module
 */
import type { AtomNode, ParseNode, TypeAnn } from "../syntax/parseTree.ts";
import type { ModuleHeader } from "./compileModule.ts";
import {
  constructorCost as cc,
  fieldSize,
  integerSize,
  moduleNameSize,
  type SizeOfVersion,
  textSize,
  WORD,
} from "./sizeOf.ts";

/** A Haskell list of `n` elements, without them. */
function listCost(n: number): number {
  return (1 + 3 * n) * WORD;
}

const f = fieldSize;

/** `Maybe` of something of size `s` (null: Nothing). */
function maybe(s: number | null): number {
  return s === null ? cc(0) : cc(1) + s;
}

function isAtomNamed(n: ParseNode | undefined, name: string): boolean {
  return n !== undefined && n.kind === "atom" && n.parts.length === 1 && n.parts[0] === name;
}

/** The reference's name of fresh type variable number `n` (`cToTV`). */
export function freshTypeVarName(n: number): string {
  const c = (i: number) => String.fromCharCode(97 + i);
  if (n < 26) return c(n);
  if (n <= 26 * 26) return c(Math.floor(n / 26) - 1) + c(n % 26);
  return c(n % 26) + String(Math.floor((n - 26 * 26) / 26));
}

/** `Literal`. */
function literalSize(ver: SizeOfVersion, n: ParseNode): number {
  switch (n.kind) {
    case "string":
    case "symbol":
      return cc(1) + textSize(n.value);
    case "integer":
      return cc(1) + integerSize(ver, n.value);
    case "decimal":
      return cc(1) + cc(2) + 2 * WORD + integerSize(ver, n.value.mantissa);
    case "bool":
      return cc(1);
    default:
      return 0;
  }
}

/** `Exp Info` of a parse node (a model expression), as the reference's parser builds it. */
export function expSize(ver: SizeOfVersion, n: ParseNode): number {
  // Each `Exp` constructor holds one record: a header, its field and a word.
  const exp = (inner: number) => WORD + f(inner);
  const atom = (name: string, quals: readonly string[]) => {
    let q = listCost(quals.length);
    for (const x of quals) q += textSize(x);
    // AtomExp: atom, qualifiers, dynamic flag, info.
    return exp(WORD + f(textSize(name)) + f(q) + f(WORD) + f(0));
  };
  const list = (items: readonly number[]) => {
    let s = listCost(items.length);
    for (const x of items) s += x;
    // ListExp: items, delimiter, info.
    return exp(WORD + f(s) + f(0) + f(0));
  };
  const sep = exp(WORD + f(0) + f(0));
  const typeExps = (t: TypeAnn): number[] => {
    switch (t.kind) {
      case "list":
        return t.elem === null ? [atom("list", [])] : [list(typeExps(t.elem))];
      case "object":
      case "table":
        return t.schema === null
          ? [atom(t.kind, [])]
          : [atom(t.kind, []), list([atomOf(t.schema)])];
      case "module":
        return [atom("module", []), list(t.interfaces.map(atomOf))];
      case "any":
        return [atom("*", [])];
      default:
        return [atom(t.kind, [])];
    }
  };
  const atomOf = (text: string) => {
    const parts = text.split(".");
    return atom(parts[parts.length - 1] as string, parts.slice(0, -1));
  };
  const nodeExps = (x: ParseNode): number[] => {
    switch (x.kind) {
      case "string":
      case "symbol":
      case "integer":
      case "decimal":
      case "bool":
        return [exp(WORD + f(literalSize(ver, x)) + f(0))];
      case "atom": {
        const a = atom(x.parts[x.parts.length - 1] as string, x.parts.slice(0, -1));
        return x.type === null ? [a] : [a, sep, ...typeExps(x.type)];
      }
      case "dynamic":
        return [atom(x.member, x.ref.parts)];
      case "sexp":
      case "list":
        return [list(x.items.flatMap(nodeExps))];
      case "object":
        return [
          list(
            x.entries.flatMap((e, i) => [
              ...(i > 0 ? [sep] : []),
              ...nodeExps(e.key),
              sep,
              ...nodeExps(e.value),
            ]),
          ),
        ];
      case "binding":
        return [
          list(
            x.entries.flatMap((e, i) => [
              ...(i > 0 ? [sep] : []),
              ...nodeExps(e.key),
              sep,
              ...nodeExps(e.name),
            ]),
          ),
        ];
      default: {
        const never: never = x;
        return never;
      }
    }
  };
  return (nodeExps(n)[0] as number) ?? 0;
}

/** What a member's metadata holds: its docstring and model expressions. */
export type Meta = { doc: string | null; models: readonly ParseNode[] };

/** `Meta`: docs and models. */
export function metaSize(ver: SizeOfVersion, m: Meta): number {
  let models = listCost(m.models.length);
  for (const e of m.models) models += expSize(ver, e);
  return WORD + f(maybe(m.doc === null ? null : textSize(m.doc))) + f(models);
}

/**
 * Reads metadata from `items[i]` on as the reference's `meta` does: a bare
 * docstring, or `@doc`/`@model` pairs. Returns the metadata and the next index.
 */
export function readMeta(
  items: readonly ParseNode[],
  i: number,
  bareDocMayEnd: boolean,
): [Meta, number] {
  const first = items[i];
  if (first !== undefined && first.kind === "string" && (bareDocMayEnd || i < items.length - 1))
    return [{ doc: first.value, models: [] }, i + 1];
  let doc: string | null = null;
  let models: readonly ParseNode[] = [];
  let j = i;
  for (;;) {
    const n = items[j];
    const v = items[j + 1];
    if (isAtomNamed(n, "@doc") && v !== undefined && v.kind === "string") doc = v.value;
    else if (isAtomNamed(n, "@model") && v !== undefined && v.kind === "list") models = v.items;
    else break;
    j += 2;
  }
  return [{ doc, models }, j];
}

/** Sizes a member's compiled term, without what its variables hold (collected in `vars`). */
class TermSizer {
  fresh = 0;
  /** The free variables met, in order. */
  readonly vars: (readonly string[])[] = [];

  readonly ver: SizeOfVersion;
  readonly moduleName: number;

  constructor(ver: SizeOfVersion, moduleName: number) {
    this.ver = ver;
    this.moduleName = moduleName;
  }

  freshTyVar(): number {
    const name = freshTypeVarName(this.fresh++);
    // TyVar (TypeVar name []).
    return WORD + f(WORD + f(textSize(name)) + f(listCost(0)));
  }

  /** A `TVar` of a free name at scope depth 0 (what it holds is added later). */
  varTerm(name: readonly string[]): number {
    this.vars.push(name);
    return cc(2);
  }

  typeSize(t: TypeAnn | null): number {
    if (t === null) return this.freshTyVar();
    switch (t.kind) {
      case "list":
        return WORD + f(t.elem === null ? WORD : this.typeSize(t.elem));
      case "object":
      case "table": {
        const inner = t.schema === null ? WORD : WORD + f(this.varTerm(t.schema.split(".")));
        // TySchema kind type partial (FullSchema).
        return WORD + f(0) + f(inner) + f(WORD);
      }
      case "module": {
        let l = listCost(t.interfaces.length);
        for (const i of t.interfaces) l += this.varTerm(i.split("."));
        return WORD + f(maybe(l));
      }
      case "any":
        return WORD;
      default:
        // TyPrim: the primitive type is sized 0.
        return WORD + f(0);
    }
  }

  /** `Arg`: name, type, info. */
  argSize(a: AtomNode): number {
    return WORD + f(textSize(a.parts.join("."))) + f(this.typeSize(a.type)) + f(0);
  }

  argsSize(args: readonly ParseNode[]): number {
    let s = listCost(args.length);
    for (const a of args) if (a.kind === "atom") s += this.argSize(a);
    return s;
  }

  /** `Def`, wrapped in its `TDef`, of a signature (interface member without a body). */
  signatureSize(items: readonly ParseNode[], kind: string): number {
    const name = items[1] as AtomNode;
    const ret = this.typeSize(name.type);
    const argsNode = items[2];
    const args = argsNode !== undefined && argsNode.kind === "sexp" ? argsNode.items : [];
    const argList = this.argsSize(args);
    const [meta, next] = readMeta(items, 3, true);
    let defMeta: number | null = null;
    if (kind === "defcap") {
      const at = items[next];
      if (isAtomNamed(at, "@event")) defMeta = WORD + f(WORD);
      else if (isAtomNamed(at, "@managed")) {
        const p = items[next + 1];
        const mgr = items[next + 2];
        let managed: number | null = null;
        if (p !== undefined && p.kind === "atom" && mgr !== undefined && mgr.kind === "atom") {
          // Just (param, TVar manager).
          managed = cc(3) + textSize(p.parts.join(".")) + this.varTerm(mgr.parts);
        }
        // DMDefcap (DefcapManaged managed).
        defMeta = WORD + f(WORD + f(maybe(managed)));
      }
    }
    const funType = WORD + f(argList) + f(ret);
    // The body of a signature: an empty list (a vector) of type TyAny.
    const body = cc(3) + 7 * WORD + WORD;
    const def =
      WORD +
      f(textSize(name.parts.join("."))) +
      f(this.moduleName) +
      f(0) +
      f(funType) +
      f(body) +
      f(metaSize(this.ver, meta)) +
      f(maybe(defMeta)) +
      f(0);
    return cc(2) + def;
  }

  /** `TSchema`: name, module, meta, fields. */
  schemaSize(items: readonly ParseNode[]): number {
    const name = items[1] as AtomNode;
    const [meta, next] = readMeta(items, 2, false);
    const fields = this.argsSize(items.slice(next));
    return (
      cc(5) +
      textSize(name.parts.join(".")) +
      maybe(this.moduleName) +
      metaSize(this.ver, meta) +
      fields
    );
  }
}

type Sized = { readonly structure: number; readonly vars: readonly (readonly string[])[] };

/**
 * The memory size of an interface (`header`, declared in `namespace`), or
 * null when it has members or references this estimate does not model
 * (constants, other modules' schemas).
 */
export function interfaceMemorySize(
  ver: SizeOfVersion,
  header: ModuleHeader,
  namespace: string | null,
): number | null {
  const moduleName = moduleNameSize(namespace, header.name);
  const members = new Map<string, Sized>();
  // In source order: the fresh type variables are numbered through the form.
  let fresh = 0;
  for (const n of header.body) {
    if (n.kind !== "sexp") continue;
    const h = n.items[0];
    const name = n.items[1];
    if (h === undefined || h.kind !== "atom" || name === undefined || name.kind !== "atom")
      continue;
    const form = h.parts[0] as string;
    if (form === "use") continue;
    if (form !== "defun" && form !== "defcap" && form !== "defpact" && form !== "defschema")
      return null;
    const sizer = new TermSizer(ver, moduleName);
    sizer.fresh = fresh;
    const structure =
      form === "defschema" ? sizer.schemaSize(n.items) : sizer.signatureSize(n.items, form);
    fresh = sizer.fresh;
    members.set(name.parts[0] as string, { structure, vars: sizer.vars });
  }
  for (const m of members.values())
    for (const v of m.vars) if (v.length !== 1 || !members.has(v[0] as string)) return null;
  // A member's term once its variables hold the members they name (in a Ref each).
  const resolved = new Map<string, number>();
  const resolvedSize = (name: string, path: readonly string[]): number => {
    const known = resolved.get(name);
    if (known !== undefined) return known;
    const m = members.get(name) as Sized;
    if (path.includes(name)) return m.structure;
    let s = m.structure;
    for (const v of m.vars) s += cc(1) + resolvedSize(v[0] as string, [...path, name]);
    resolved.set(name, s);
    return s;
  };
  let total = 0;
  for (const m of members.values()) {
    // Before resolution each variable holds its name (`Left name`); each is then inlined.
    total += m.structure;
    for (const v of m.vars) {
      const n = v[0] as string;
      total += WORD + f(textSize(n)) + cc(1) + resolvedSize(n, []);
    }
  }
  return total;
}
