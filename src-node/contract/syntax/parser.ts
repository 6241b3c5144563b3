/**
 * The parser: tokens → parse tree (reference §1.1).
 *
 * `( … )` s-expressions; `[ … ]` lists whose elements are separated either all by
 * whitespace or all by commas; `{ k: v, … }` objects (keys are strings or
 * symbols); `{ k := name, … }` bindings; `name:type` annotations; `ref::member`
 * references. Nesting is bounded (`MAX_DEPTH`) so hostile input cannot exhaust
 * the stack. Every failure is a SyntaxError naming the position and what was
 * expected.
 * @module
 */
import { contractFailure } from "../errors.ts";
import { type Token, tokenize } from "./lexer.ts";
import type { AtomNode, ParseNode, TypeAnn } from "./parseTree.ts";
import { joinSpans, type Span } from "./span.ts";

/** Deepest bracket nesting accepted. */
export const MAX_DEPTH = 400;

const PRIM_TYPES = new Set(["integer", "decimal", "string", "bool", "time", "keyset", "guard"]);

function describe(t: Token): string {
  switch (t.kind) {
    case "eof":
      return "end of input";
    case "atom":
      return `'${t.parts.join(".")}'`;
    case "integer":
    case "decimal":
      return "a number";
    case "string":
      return "a string";
    case "symbol":
      return `symbol '${t.value}`;
    case "bool":
      return `'${t.value}'`;
    default:
      return `'${t.kind}'`;
  }
}

class Parser {
  private i = 0;
  private depth = 0;
  private readonly tokens: Token[];

  constructor(tokens: Token[]) {
    this.tokens = tokens;
  }

  peek(): Token {
    return this.tokens[this.i] as Token;
  }

  take(): Token {
    const t = this.tokens[this.i] as Token;
    if (t.kind !== "eof") this.i++;
    return t;
  }

  fail(expected: string, t: Token = this.peek()): never {
    throw contractFailure("SyntaxError", `expected ${expected}, found ${describe(t)}`, t.span);
  }

  program(): ParseNode[] {
    const out: ParseNode[] = [];
    while (this.peek().kind !== "eof") out.push(this.expr());
    return out;
  }

  expr(): ParseNode {
    const t = this.take();
    switch (t.kind) {
      case "integer":
      case "decimal":
      case "string":
      case "symbol":
      case "bool":
        return t;
      case "atom":
        return this.afterAtom(t);
      case "(":
        return this.nested(t, () => this.sexp(t.span));
      case "[":
        return this.nested(t, () => this.list(t.span));
      case "{":
        return this.nested(t, () => this.brace(t.span));
      default:
        return this.fail("an expression", t);
    }
  }

  nested<T>(open: Token, f: () => T): T {
    if (++this.depth > MAX_DEPTH) {
      throw contractFailure(
        "SyntaxError",
        `expressions nested deeper than ${MAX_DEPTH} levels`,
        open.span,
      );
    }
    const r = f();
    this.depth--;
    return r;
  }

  afterAtom(t: Extract<Token, { kind: "atom" }>): ParseNode {
    const next = this.peek();
    if (next.kind === "::") {
      this.take();
      const member = this.take();
      if (member.kind !== "atom" || member.parts.length !== 1)
        this.fail("a member name after '::'", member);
      const ref: AtomNode = { kind: "atom", parts: t.parts, type: null, span: t.span };
      return {
        kind: "dynamic",
        ref,
        member: member.parts[0] as string,
        span: joinSpans(t.span, member.span),
      };
    }
    if (next.kind === ":") {
      this.take();
      const type = this.type();
      return { kind: "atom", parts: t.parts, type, span: joinSpans(t.span, this.prevSpan()) };
    }
    return { kind: "atom", parts: t.parts, type: null, span: t.span };
  }

  prevSpan(): Span {
    return (this.tokens[this.i - 1] as Token).span;
  }

  type(): TypeAnn {
    const t = this.take();
    if (t.kind === "[") {
      const elem = this.type();
      if (this.take().kind !== "]") this.fail("']' closing a list type", this.tokens[this.i - 1]);
      return { kind: "list", elem };
    }
    if (t.kind === "{") {
      const name = this.qualifiedName();
      if (this.take().kind !== "}") this.fail("'}' closing a schema type", this.tokens[this.i - 1]);
      return { kind: "object", schema: name, user: true };
    }
    if (t.kind !== "atom" || t.parts.length !== 1) return this.fail("a type", t);
    const name = t.parts[0] as string;
    if (PRIM_TYPES.has(name)) return { kind: name as "integer" };
    if (name === "list") return { kind: "list", elem: null };
    if (name === "value" || name === "*") return { kind: "any" };
    if (name === "object" || name === "table") {
      let schema: string | null = null;
      if (this.peek().kind === "{" && this.peek().span.offset === t.span.end) {
        this.take();
        schema = this.qualifiedName();
        if (this.take().kind !== "}")
          this.fail(`'}' closing the ${name} schema`, this.tokens[this.i - 1]);
      }
      return { kind: name, schema };
    }
    if (name === "module") {
      if (this.take().kind !== "{")
        this.fail("'{' after 'module' in a type", this.tokens[this.i - 1]);
      const interfaces: string[] = [];
      while (this.peek().kind !== "}") {
        interfaces.push(this.qualifiedName());
        if (this.peek().kind === ",") this.take();
        else if (this.peek().kind !== "}") this.fail("',' or '}' in a module type");
      }
      this.take();
      return { kind: "module", interfaces };
    }
    return this.fail(
      "a type (integer, decimal, string, bool, time, keyset, guard, list, [type], object, {schema}, table, module{…})",
      t,
    );
  }

  qualifiedName(): string {
    const t = this.take();
    if (t.kind !== "atom") return this.fail("a name", t);
    return t.parts.join(".");
  }

  sexp(open: Span): ParseNode {
    const items: ParseNode[] = [];
    while (true) {
      const t = this.peek();
      if (t.kind === ")") {
        this.take();
        return { kind: "sexp", items, span: joinSpans(open, t.span) };
      }
      if (t.kind === "eof") this.fail(`')' to close the '(' at ${open.line}:${open.column}`);
      if (t.kind === "," || t.kind === ":" || t.kind === ":=" || t.kind === "::")
        this.fail("an expression or ')'");
      items.push(this.expr());
    }
  }

  list(open: Span): ParseNode {
    const items: ParseNode[] = [];
    let commas: boolean | null = null;
    while (true) {
      const t = this.peek();
      if (t.kind === "]") {
        this.take();
        return { kind: "list", items, span: joinSpans(open, t.span) };
      }
      if (t.kind === "eof") this.fail(`']' to close the '[' at ${open.line}:${open.column}`);
      if (items.length > 0) {
        if (commas === null) commas = t.kind === ",";
        if (commas) {
          if (t.kind !== ",") this.fail("',' between list elements (the list started with commas)");
          this.take();
        } else if (t.kind === ",") {
          this.fail("an expression or ']' (the list started without commas)");
        }
      }
      items.push(this.expr());
    }
  }

  brace(open: Span): ParseNode {
    if (this.peek().kind === "}") {
      return { kind: "object", entries: [], span: joinSpans(open, this.take().span) };
    }
    const objEntries: { key: ParseNode; value: ParseNode }[] = [];
    const bindEntries: { key: ParseNode; name: AtomNode }[] = [];
    let mode: ":" | ":=" | null = null;
    while (true) {
      const key = this.keyExpr();
      const sep = this.take();
      if (sep.kind !== ":" && sep.kind !== ":=") this.fail("':' or ':=' after a key", sep);
      if (mode === null) mode = sep.kind;
      else if (mode !== sep.kind)
        this.fail(mode === ":" ? "':' (this is an object)" : "':=' (this is a binding)", sep);
      if (mode === ":") {
        if (key.kind !== "string" && key.kind !== "symbol") {
          throw contractFailure("SyntaxError", "object keys must be strings or symbols", key.span);
        }
        objEntries.push({ key, value: this.expr() });
      } else {
        const v = this.expr();
        if (v.kind !== "atom" || v.parts.length !== 1) {
          throw contractFailure("SyntaxError", "expected a variable name after ':='", v.span);
        }
        bindEntries.push({ key, name: v });
      }
      const t = this.take();
      if (t.kind === "}") {
        const span = joinSpans(open, t.span);
        return mode === ":"
          ? { kind: "object", entries: objEntries, span }
          : { kind: "binding", entries: bindEntries, span };
      }
      if (t.kind !== ",") this.fail("',' or '}'", t);
    }
  }

  /** A key: like an expression, but a bare name is never read as `name:type`. */
  keyExpr(): ParseNode {
    const t = this.peek();
    if (t.kind === "atom") {
      this.take();
      return { kind: "atom", parts: t.parts, type: null, span: t.span };
    }
    return this.expr();
  }
}

/**
 * Parses a whole program.
 * @throws {ContractError} a SyntaxError failure (the evaluation boundary turns it into a value).
 */
export function parseProgram(
  source: string,
  file: string,
  origin?: { readonly line: number; readonly column: number },
): ParseNode[] {
  return new Parser(tokenize(source, file, origin)).program();
}
