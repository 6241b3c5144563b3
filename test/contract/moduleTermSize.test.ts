/**
 * The memory size of a module's compiled terms, as the reference charges a
 * module's installation: sizes worked out by hand from the reference's
 * `SizeOf` rules (a constructor is a word and a word per field, a `Text` six
 * words and two bytes per character, a list a word and three per element).
 */
import { describe, expect, it } from "vitest";
import { moduleHeader } from "../../src-node/contract/eval/compileModule.ts";
import { moduleMemoryInstallGas } from "../../src-node/contract/eval/moduleGas.ts";
import {
  type ModuleSizeEnv,
  moduleTermsSize,
  nativeTermSize,
} from "../../src-node/contract/eval/moduleTermSize.ts";
import { parseProgram } from "../../src-node/contract/syntax/parser.ts";
import type { ParseNode } from "../../src-node/contract/syntax/parseTree.ts";
import type { PactValue } from "../../src-node/contract/values/value.ts";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";

/** A hash whose 32 bytes are all ASCII ("A"): 32 characters, 9 words and 32 bytes (104). */
const ASCII_HASH = "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE";

type Sexp = Extract<ParseNode, { kind: "sexp" }>;

const env: ModuleSizeEnv = {
  ver: 1,
  namespace: null,
  hash: ASCII_HASH,
  interfaces: [],
  consts: new Map(),
  findModule: () => null,
};

function sizeOf(code: string, consts: [string, PactValue][] = []): number | null {
  const node = parseProgram(code, "t.pact")[0];
  if (node === undefined || node.kind !== "sexp") throw new Error("not a form");
  return moduleTermsSize(moduleHeader(node), { ...env, consts: new Map(consts) });
}

describe("[contract] module memory: the reference's compiled terms", () => {
  it("sizes a native with its documentation, example and function type", () => {
    // TNative: 7 fields (64); name "enforce" (48 + 14); types: a non-empty list (24) of
    // one FunType (8 + [2 args: 56 + 104 + 102] + 8 + bool 16 + 8), no others (8);
    // one example of 39 characters (32 + 8 + 126 + 8); documentation of 84 (48 + 168);
    // the top-level flag (8).
    expect(nativeTermSize("enforce")).toBe(64 + 62 + (24 + 302 + 8) + 174 + 216 + 8);
  });

  it("charges a native at every call: the call, its arguments and the native's whole term", () => {
    const one = sizeOf('(module m G (defcap G () true) (defun f () (enforce true "m")))');
    const two = sizeOf(
      '(module m G (defcap G () true) (defun f () (enforce true "m") (enforce true "m")))',
    );
    expect(one).not.toBeNull();
    // One more body element (8) and the application: TApp (24) around App (8), its function
    // (a variable under the defun's scope, 40 + 24, holding Direct (16) the native, 858,
    // and a word) and its arguments (56 + true 40 + "m" 90, and a word), its info's word.
    expect((two as number) - (one as number)).toBe(8 + 24 + 8 + (938 + 8) + (186 + 8) + 8);
  });

  it("inlines a table at every reference, with its schema", () => {
    const base =
      "(module m G (defcap G () true) (defschema s a:integer) (deftable t:{s}) (defun f () ";
    const once = sizeOf(`${base}(keys t)))`);
    const twice = sizeOf(`${base}(keys t) (keys t)))`);
    const keys = nativeTermSize("keys") as number;
    // The call as above, with the table's variable holding Ref (16) the table's term.
    const schema = 48 + (48 + 2) + (16 + 24 + 50 + 8) + 40 + (32 + (8 + 58 + 24 + 8));
    const table = 56 + (48 + 2) + (24 + 50 + 8) + 104 + (8 + 24 + 16 + schema + 8) + 40;
    const call = 24 + 8 + (40 + 24 + 16 + keys + 8) + (32 + (40 + 24 + 16 + table) + 8) + 8;
    expect((twice as number) - (once as number)).toBe(8 + call);
  });

  it("inlines a constant's evaluated value at every reference, lifted as the reference keeps it", () => {
    const seven = { kind: "integer", value: 7n } as const;
    const base = "(module m G (defcap G () true) (defconst C 7) ";
    const once = sizeOf(`${base}(defun f () C))`, [["C", seven]]) as number;
    const twice = sizeOf(`${base}(defun f () C C))`, [["C", seven]]);
    // One more body element (8); the variable under the defun's scope (40 + 24) holding
    // Ref (16) of the lifted value: TVar (24) around Direct (16) of the literal 7 (24 + 16 + 8).
    expect((twice as number) - once).toBe(8 + 40 + 24 + 16 + (24 + 16) + (24 + 16 + 8));
  });

  it("keeps a constant's raw term and its lifted value; a constant naming another reads through its lift", () => {
    const seven = { kind: "integer", value: 7n } as const;
    const none = sizeOf("(module m G (defcap G () true) (defun f () 1))") as number;
    const c = sizeOf("(module m G (defcap G () true) (defconst C 7) (defun f () 1))", [
      ["C", seven],
    ]) as number;
    const cd = sizeOf(
      "(module m G (defcap G () true) (defconst C 7) (defconst D C) (defun f () 1))",
      [
        ["C", seven],
        ["D", seven],
      ],
    ) as number;
    const literal = 24 + 16 + 8;
    const lifted = 24 + 16 + literal;
    // C's raw term is the literal; D's, a variable (24) holding Ref (16) of C's lifted value.
    // Both evaluate to the literal, each kept lifted: D's value is not lifted twice.
    expect(cd - c - (c - none)).toBe(24 + 16 + lifted - literal);
  });

  it("sizes the module's hash, in each qualified name and table, by the UTF-8 characters of its bytes", () => {
    const code =
      "(module m G (defcap G () true) (defschema s a:integer) (deftable t:{s}) (defun f () 1) (defun g () (f) (keys t)))";
    const withHash = (bytes: number[]) =>
      moduleTermsSize(moduleHeader(parseProgram(code, "t.pact")[0] as Sexp), {
        ...env,
        hash: base64UrlEncode(Uint8Array.from(bytes)),
      }) as number;
    const a = "A".charCodeAt(0);
    const ascii = withHash(Array(32).fill(a));
    // The hash is held three times: by the table, by the table inlined in g, by g's name of f.
    // "é" (2 bytes) is one character: 31 characters, 3 bytes less.
    expect(ascii - withHash([...Array(30).fill(a), 0xc3, 0xa9])).toBe(3);
    // Ten "€" (3 bytes each) and two "A": 12 characters.
    expect(ascii - withHash([...Array(10).fill([0xe2, 0x82, 0xac]).flat(), a, a])).toBe(3 * 20);
    // An overlong 2-byte sequence is two replacement characters, as are 2 stray bytes.
    expect(withHash([0xc0, 0x80, ...Array(30).fill(a)])).toBe(ascii);
    expect(withHash([0x80, 0xff, ...Array(30).fill(a)])).toBe(ascii);
  });

  it("charges 0.006 gas a byte of it: a hash of 12 characters costs 6 less over 50 calls", () => {
    const calls = Array(50).fill("(f)").join(" ");
    const code = `(module m G (defcap G () true) (defun f () 1) (defun g () ${calls}))`;
    const header = moduleHeader(parseProgram(code, "t.pact")[0] as Sexp);
    const gas = (bytes: number[]) =>
      moduleMemoryInstallGas(
        header,
        code,
        { ...env, hash: base64UrlEncode(Uint8Array.from(bytes)) },
        new Set(),
      );
    const ascii = gas(Array(32).fill(0x41));
    // Each of the 50 qualified names of f holds the hash: 20 characters less is 1000 bytes, 6 gas.
    expect(ascii - gas([...Array(10).fill([0xe2, 0x82, 0xac]).flat(), 0x41, 0x41])).toBe(6);
    expect(ascii).toBeGreaterThan(60_000);
  });

  it("leaves out what it does not model", () => {
    expect(sizeOf("(module m G (defcap G () true) (defun f (r) (r::g)))")).toBeNull();
  });
});
