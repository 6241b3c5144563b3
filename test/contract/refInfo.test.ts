/**
 * Before Pact 4.9 (`DisablePact49`) a module reference written in the repl
 * carries the position of the top-level form its name is in, in the
 * reference's `Info` JSON; `hash` of the reference hashes that JSON. It
 * depends on the script's name as it was given (never the folder it runs
 * from) and the form's position; since 4.9 on neither. Loaded files are named
 * as the reference repl names them.
 */
import { describe, expect, it } from "vitest";
import type { Value } from "../../src-node/contract/eval/term.ts";
import { ReplSession } from "../../src-node/contract/repl/replSession.ts";
import { blake2b256 } from "../../src-node/crypto/blake2.ts";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";

const line1 = "(begin-tx)";
const line2 = "(interface refi) (module refmod G (defcap G () true) (implements refi))";
const line3 = '(env-exec-config ["DisablePact49"])';
const line4 = "(hash    refmod  ) ; a comment";
const form = "(hash    refmod  )";

function hashOf(file: string, text: string): string {
  const s = new ReplSession({});
  const r = s.evalSource(text, file);
  if (!r.ok) throw new Error(r.error.message);
  const v = r.value as Value;
  if (v.kind !== "string") throw new Error(`not a string: ${v.kind}`);
  return v.value;
}

function pactHash(text: string): string {
  return base64UrlEncode(blake2b256(new TextEncoder().encode(text)));
}

describe("[contract] module references' source position before Pact 4.9", () => {
  const text = [line1, line2, line3, line4].join("\n");
  const offset = line1.length + line2.length + line3.length + 3;
  const spec = '[{"namespace":null,"name":"refi"}]';

  it("hashes the reference's JSON with the Info of its top-level form (file as given, line, column, bytes, length and code to the next token)", () => {
    // The form's length and code run to the next token: its comment included.
    const code = `${form} ; a comment`;
    const info = `{"d":[${code.length},"scripts/t.repl",3,0,${offset},0],"c":"${code}"}`;
    const json = `{"refSpec":${spec},"refInfo":${info},"refName":{"namespace":null,"name":"refmod"}}`;
    expect(hashOf("scripts/t.repl", text)).toBe(pactHash(json));
  });

  it("depends on the name the script was given, not on anything else", () => {
    expect(hashOf("scripts/t.repl", text)).toBe(hashOf("scripts/t.repl", text));
    expect(hashOf("t.repl", text)).not.toBe(hashOf("scripts/t.repl", text));
  });

  it("since Pact 4.9 hashes the reference alone", () => {
    const now = [line1, line2, "(hash refmod)"].join("\n");
    const json = `{"refSpec":${spec},"refName":{"namespace":null,"name":"refmod"}}`;
    expect(hashOf("scripts/t.repl", now)).toBe(pactHash(json));
    expect(hashOf("elsewhere/u.repl", now)).toBe(pactHash(json));
  });

  it("counts a tab to the next multiple of 8 in the column, and bytes of non-ASCII text", () => {
    const tabbed = [line1, line2, line3, '"é"\t(hash refmod)'].join("\n");
    // `"é"` is 4 bytes; the tab moves the column from 3 to 8, where the form starts; its code
    // is taken from the byte offset as a character index (one character late here).
    const bytes = offset + 4 + 1;
    const code = [...tabbed].slice(bytes, bytes + 13).join("");
    const info = `{"d":[13,"t.repl",3,8,${bytes},5],"c":"${code}"}`;
    const json = `{"refSpec":${spec},"refInfo":${info},"refName":{"namespace":null,"name":"refmod"}}`;
    expect(hashOf("t.repl", tabbed)).toBe(pactHash(json));
  });
});

describe("[contract] loaded files' names", () => {
  function loads(from: string, path: string): string {
    const read: string[] = [];
    const s = new ReplSession({
      readFile: (p) => {
        read.push(p);
        return "1";
      },
    });
    const r = s.evalSource(`(load "${path}")`, from);
    expect(r.ok).toBe(true);
    return read[0] as string;
  }

  it("are joined to the loading file's folder, never normalized", () => {
    expect(loads("a/b.repl", "../c.pact")).toBe("a/../c.pact");
    expect(loads("a/b.repl", "./c.pact")).toBe("a/./c.pact");
  });

  it("are as written from a file named without a folder, or when absolute", () => {
    expect(loads("b.repl", "v2/c.pact")).toBe("v2/c.pact");
    expect(loads("a/b.repl", "/abs/c.pact")).toBe("/abs/c.pact");
  });
});
