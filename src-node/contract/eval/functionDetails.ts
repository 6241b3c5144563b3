/**
 * A module function shown as a value, as the reference's repl shows one
 * (`(defun m.f:<b> (a:<c>))`): its kind, qualified name, return type and
 * parameters, then its docstring and capability metadata. Untyped returns
 * and parameters show the fresh type variables the reference's compiler
 * names them with (`a`, `b`, …, `z`, `aa`, …), numbered through the whole
 * module form in source order: each untyped definition name, parameter,
 * `let` or binding name, each list literal (after its elements) and each
 * lambda (two: its name and its return) takes the next number.
 * @module
 */
import { parseProgram } from "../syntax/parser.ts";
import type { AtomNode, ParseNode, TypeAnn } from "../syntax/parseTree.ts";
import type { FunctionDef } from "./definitions.ts";
import { freshTypeVarName } from "./moduleMemory.ts";

type FreshNames = { ret: string | null; params: (string | null)[] };

function headOf(n: ParseNode): string | null {
  if (n.kind !== "sexp") return null;
  const h = n.items[0];
  return h !== undefined && h.kind === "atom" && h.parts.length === 1
    ? (h.parts[0] as string)
    : null;
}

function isMetaAtom(n: ParseNode | undefined, name: string): boolean {
  return n !== undefined && n.kind === "atom" && n.parts.length === 1 && n.parts[0] === name;
}

/** Where a definition's body starts: after its docstring, `@doc`, `@model` and capability metadata. */
function bodyStart(items: readonly ParseNode[]): number {
  let i = 3;
  const first = items[i];
  if (first !== undefined && first.kind === "string" && i < items.length - 1) i++;
  for (;;) {
    if (isMetaAtom(items[i], "@doc") || isMetaAtom(items[i], "@model")) i += 2;
    else if (isMetaAtom(items[i], "@event")) i++;
    else if (isMetaAtom(items[i], "@managed")) {
      const p = items[i + 1];
      const f = items[i + 2];
      i += p !== undefined && p.kind === "atom" && f !== undefined && f.kind === "atom" ? 3 : 1;
    } else return i;
  }
}

/** Numbers the fresh type variables of a module form, per member. */
class FreshCounter {
  n = 0;
  readonly members = new Map<string, FreshNames>();

  next(): string {
    return freshTypeVarName(this.n++);
  }

  typed(a: ParseNode | undefined): string | null {
    return a !== undefined && a.kind === "atom" && a.type === null ? this.next() : null;
  }

  member(m: ParseNode): void {
    const head = headOf(m);
    if (head === null || m.kind !== "sexp") return;
    const items = m.items;
    switch (head) {
      case "defun":
      case "defcap":
      case "defpact": {
        const name = items[1];
        const ret = this.typed(name);
        const argsNode = items[2];
        const params =
          argsNode !== undefined && argsNode.kind === "sexp"
            ? argsNode.items.map((a) => this.typed(a))
            : [];
        if (name !== undefined && name.kind === "atom")
          this.members.set(name.parts.join("."), { ret, params });
        for (const x of items.slice(bodyStart(items))) this.expr(x);
        return;
      }
      case "defconst":
        this.typed(items[1]);
        for (const x of items.slice(2)) this.expr(x);
        return;
      case "defschema":
        for (const x of items.slice(2)) if (x.kind === "atom") this.typed(x);
        return;
      default:
        return;
    }
  }

  expr(n: ParseNode): void {
    switch (n.kind) {
      case "list":
        for (const x of n.items) this.expr(x);
        this.next();
        return;
      case "object":
        for (const e of n.entries) this.expr(e.value);
        return;
      case "binding":
        for (const e of n.entries) {
          this.expr(e.key);
          this.typed(e.name);
        }
        return;
      case "sexp":
        break;
      default:
        return;
    }
    const head = headOf(n);
    const items = n.items;
    if (head === "let" || head === "let*") {
      const bs = items[1];
      if (bs !== undefined && bs.kind === "sexp")
        for (const b of bs.items) {
          if (b.kind !== "sexp") continue;
          this.typed(b.items[0]);
          for (const x of b.items.slice(1)) this.expr(x);
        }
      for (const x of items.slice(2)) this.expr(x);
      return;
    }
    if (head === "lambda") {
      this.next();
      this.next();
      const args = items[1];
      if (args !== undefined && args.kind === "sexp") for (const a of args.items) this.typed(a);
      for (const x of items.slice(2)) this.expr(x);
      return;
    }
    for (const x of items.slice(head === null ? 0 : 1)) this.expr(x);
  }
}

/** The reference's rendering of a type annotation in a definition. */
function typeText(t: TypeAnn): string {
  switch (t.kind) {
    case "list":
      return t.elem === null ? "[*]" : `[${typeText(t.elem)}]`;
    case "object":
    case "table":
      return t.schema === null ? `${t.kind}:*` : `${t.kind}:{${t.schema}}`;
    case "module":
      return `module{${t.interfaces.join(",")}}`;
    case "any":
      return "*";
    default:
      return t.kind;
  }
}

function docOf(items: readonly ParseNode[]): string | null {
  for (let i = 3; i < items.length; i++) {
    const n = items[i] as ParseNode;
    if (n.kind === "string") return i < items.length - 1 ? n.value : null;
    if (n.kind === "atom" && n.parts[0] === "@doc") {
      const d = items[i + 1];
      return d !== undefined && d.kind === "string" ? d.value : null;
    }
    if (!(n.kind === "atom" && n.parts[0] === "@model") && n.kind !== "list") return null;
  }
  return null;
}

/** `(defun m.f:<b> (a:<c>))` for a module function. */
export function functionDetails(d: FunctionDef): string {
  const form = parseProgram(d.module.version.code, d.module.version.origin.file)[0];
  const counter = new FreshCounter();
  let node: ParseNode | null = null;
  if (form !== undefined && form.kind === "sexp")
    for (const m of form.items) {
      counter.member(m);
      const name = m.kind === "sexp" ? m.items[1] : undefined;
      if (name !== undefined && name.kind === "atom" && name.parts.join(".") === d.name) node = m;
    }
  const fresh = counter.members.get(d.name) ?? { ret: null, params: [] };
  const items = node !== null && node.kind === "sexp" ? node.items : [];
  const nameNode = items[1] as AtomNode | undefined;
  const argsNode = items[2];
  const ret = nameNode?.type != null ? typeText(nameNode.type) : `<${fresh.ret ?? "a"}>`;
  const params =
    argsNode !== undefined && argsNode.kind === "sexp"
      ? argsNode.items.map((a, i) =>
          a.kind !== "atom"
            ? ""
            : `${a.parts.join(".")}:${a.type !== null ? typeText(a.type) : `<${fresh.params[i] ?? "a"}>`}`,
        )
      : d.params.map((p) => p.name);
  const parts = [d.kind, `${d.module.fq}.${d.name}:${ret}`, `(${params.join(" ")})`];
  const doc = docOf(items);
  if (doc !== null) parts.push(doc);
  const cap = d.cap;
  if (cap !== null && cap.kind === "event") parts.push("@event");
  else if (cap !== null && cap.kind === "autoManaged") parts.push("@managed");
  else if (cap !== null && cap.kind === "managed")
    parts.push(`@managed ${cap.param} ${cap.mgrName}`);
  return `(${parts.join(" ")})`;
}
