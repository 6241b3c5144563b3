/**
 * The command verification rules table of docs/commands.md, as data
 * (`command-rules.json` beside this file): each vector is a recipe for a command, built and
 * signed deterministically with fixed keys (the test accounts' published keys and RFC 8032's
 * first test key), the outcome Weft gives on each path it names, and what the reference does.
 * Every vector runs through the real paths on a test-singleton chain with its genesis: `/send`
 * (`CommandService.send`: parse, node rules at the clock, signatures, duplicates, contract
 * data, gas purchase), `/local` with signature verification, `/local?preflight=true`, and,
 * where named, `/local` without signature verification, `/send` again while the command is
 * pending (`resend`) and once a block holds it (`afterMined`).
 *
 * Recipe: `base` (the file's) with `cmd` merged in (objects member by member, `"$delete"`
 * removes a member, anything else replaces), `repeatSigner` copies of the first signer,
 * `cmdText` instead of the built text, `hash` (`blake2s`, Weft's, by default; `blake2b`, the
 * reference's; `mismatch`, another command's; `{"text"}` as given), and `sigs` (by default,
 * each signer's own signature; `{"by": "$key"}` another key's, `"upper": true` in capitals,
 * other members copied into the signature object; `{"sig"}` as given; `null`). `$sender00` …
 * `$sender09` and `$other` are public keys (`:upper` in capitals), `$now-60` the clock's
 * seconds plus an offset.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Command } from "../../src-node/command/commandTypes.ts";
import {
  isJsonObject,
  JsonNumber,
  type JsonValue,
  parseJsonExact,
  stringifyJson,
} from "../../src-node/command/exactJson.ts";
import { referenceRequestKeyOf } from "../../src-node/command/requestKeyCheck.ts";
import { NodeError } from "../../src-node/errors/nodeError.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { devAccount } from "../../src-node/genesis/devAccounts.ts";
import { type ExecChain, openExecChain } from "../support/execChain.ts";

type Path = "send" | "local" | "preflight" | "localUnverified" | "resend" | "afterMined";
type Outcome =
  | "accepted"
  | { readonly code: string; readonly field?: string }
  | { readonly result: "success" | "failure"; readonly message?: string };
type SigRecipe =
  | null
  | "own"
  | { by?: string; upper?: boolean; sig?: string; [k: string]: unknown };
type Recipe = {
  readonly cmd?: JsonValue;
  readonly repeatSigner?: number;
  readonly cmdText?: string;
  readonly hash?: "blake2s" | "blake2b" | "mismatch" | { readonly text: string };
  readonly sigs?: readonly SigRecipe[];
};
type Vector = {
  readonly id: string;
  readonly rule: string;
  readonly recipe: Recipe;
  readonly expect: Partial<Record<Path, Outcome>>;
  readonly reference: { readonly cite: string; readonly behaviour: string };
  readonly weft?: string;
  readonly differs?: string;
};
type VectorData = {
  readonly keys: Record<string, { readonly secretKeyHex: string }>;
  readonly base: JsonValue;
  readonly cases: readonly Vector[];
};

/** Plain JSON of the exact parse (numbers back to JS numbers) for everything but commands. */
function plain(v: JsonValue): unknown {
  return JSON.parse(stringifyJson(v));
}

const file = join(import.meta.dirname, "command-rules.json");
const exact = parseJsonExact(readFileSync(file, "utf8"));
if (!isJsonObject(exact)) throw new Error(`${file}: not a JSON object`);
const data: VectorData = {
  ...(plain(exact) as Omit<VectorData, "base" | "cases">),
  base: exact.base as JsonValue,
  cases: (exact.cases as readonly JsonValue[]).map((c) => {
    const v = plain(c) as Vector;
    // Recipes keep their numbers' text (a capability argument 2.50 stays 2.50 in cmd).
    const recipe = (c as { recipe: JsonValue }).recipe;
    const cmd = (recipe as { cmd?: JsonValue }).cmd;
    return { ...v, recipe: cmd === undefined ? v.recipe : { ...v.recipe, cmd } };
  }),
};

/** Public key → secret key, for the test accounts and the file's fixed keys. */
const secrets = new Map<string, string>();
const publicKeys = new Map<string, string>();
for (let i = 0; i < 10; i++) {
  const a = devAccount(i);
  publicKeys.set(`sender0${i}`, a.publicKey);
  secrets.set(a.publicKey, a.secretKey);
}
for (const [name, k] of Object.entries(data.keys)) {
  const pub = nodeCommands.publicKeyOf(k.secretKeyHex);
  publicKeys.set(name, pub);
  secrets.set(pub, k.secretKeyHex);
}

function keyOf(name: string): string {
  const key = publicKeys.get(name);
  if (key === undefined) throw new Error(`unknown key $${name}`);
  return key;
}

function resolve(v: JsonValue, nowS: number): JsonValue {
  if (typeof v === "string" && v.startsWith("$")) {
    const now = /^\$now([+-]\d+)?$/.exec(v);
    if (now !== null) return JsonNumber.of(String(nowS + Number(now[1] ?? 0))) as JsonNumber;
    const key = /^\$([a-z0-9]+)(:upper)?$/.exec(v);
    if (key !== null) {
      const k = keyOf(key[1] as string);
      return key[2] === undefined ? k : k.toUpperCase();
    }
    throw new Error(`unknown placeholder ${v}`);
  }
  if (Array.isArray(v)) return v.map((x: JsonValue) => resolve(x, nowS));
  if (isJsonObject(v)) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x, nowS)]));
  }
  return v;
}

function merge(base: JsonValue, over: JsonValue | undefined): JsonValue {
  if (over === undefined) return base;
  if (!isJsonObject(base) || !isJsonObject(over)) return over;
  const out: Record<string, JsonValue> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === "$delete") delete out[k];
    else out[k] = merge(base[k] as JsonValue, v);
  }
  return out;
}

function sign(hash: string, pubKey: string, upper = false): string {
  const secret = secrets.get(pubKey.toLowerCase());
  if (secret === undefined) return "";
  const sig = nodeCommands.signRequestKey(hash, secret).sig;
  return upper ? sig.toUpperCase() : sig;
}

/** The command a vector's recipe makes (`run` keeps request keys apart between runs). */
function buildVector(v: Vector, nowS: number, run: string): Command {
  const r = v.recipe;
  let cmdValue = merge(merge(data.base, { nonce: `vector ${v.id} ${run}` }), r.cmd);
  const signers = isJsonObject(cmdValue) ? cmdValue.signers : undefined;
  if (r.repeatSigner !== undefined && isJsonObject(cmdValue) && Array.isArray(signers)) {
    cmdValue = { ...cmdValue, signers: Array.from({ length: r.repeatSigner }, () => signers[0]) };
  }
  cmdValue = resolve(cmdValue, nowS);
  const cmd = r.cmdText ?? stringifyJson(cmdValue);
  const h = r.hash ?? "blake2s";
  const hash =
    h === "blake2s"
      ? nodeCommands.requestKeyOf(cmd)
      : h === "blake2b"
        ? referenceRequestKeyOf(cmd)
        : h === "mismatch"
          ? nodeCommands.requestKeyOf(`${cmd} `)
          : h.text;
  const signerKeys = (
    isJsonObject(cmdValue) && Array.isArray(cmdValue.signers) ? cmdValue.signers : []
  ).map((s: JsonValue) => (isJsonObject(s) && typeof s.pubKey === "string" ? s.pubKey : ""));
  const recipes: readonly SigRecipe[] = r.sigs ?? signerKeys.map(() => "own");
  const sigs = recipes.map((s, i) => {
    if (s === null) return null;
    if (s === "own") return { sig: sign(hash, signerKeys[i] ?? "") };
    const { by, upper, sig, ...extra } = s;
    const resolvedExtra = resolve(extra as JsonValue, nowS) as Record<string, JsonValue>;
    if (sig !== undefined) return { sig, ...resolvedExtra };
    const key = by === undefined ? (signerKeys[i] ?? "") : (resolve(by, nowS) as string);
    return { sig: sign(hash, key, upper === true), ...resolvedExtra };
  });
  return { cmd, hash, sigs: sigs as Command["sigs"] };
}

type Seen =
  | {
      readonly kind: "accepted";
      readonly status?: string | undefined;
      readonly message?: string | undefined;
    }
  | {
      readonly kind: "refused";
      readonly errors: readonly { code: string; field: string | undefined }[];
    };

function refusal(e: unknown): Seen {
  if (!(e instanceof NodeError)) throw e;
  const t = e.type as {
    code: string;
    field?: string;
    failures?: readonly (NodeError | { error: NodeError })[];
  };
  const inner =
    t.failures?.map((f) => (f instanceof NodeError ? f : f.error)) ?? ([e] as NodeError[]);
  return {
    kind: "refused",
    errors: inner.map((x) => ({ code: x.code, field: (x.type as { field?: string }).field })),
  };
}

async function runPath(x: ExecChain, path: Path, command: Command): Promise<Seen> {
  const body = JSON.parse(JSON.stringify(command)) as unknown;
  try {
    if (path === "send" || path === "resend" || path === "afterMined") {
      // resend: sent twice, the second answer counts; afterMined: sent again once mined.
      if (path !== "send") x.commands.send(0, [body]);
      if (path === "afterMined") await x.mine(0);
      x.commands.send(0, [body]);
      return { kind: "accepted" };
    }
    const text = await x.commands.local(0, body, {
      preflight: path === "preflight",
      signatureVerification: path !== "localUnverified",
      rewindDepth: 0,
    });
    const answer = JSON.parse(text) as {
      result?: { status: string; error?: { message: string } };
      preflightResult?: { result: { status: string; error?: { message: string } } };
    };
    const result = answer.preflightResult?.result ?? answer.result;
    return { kind: "accepted", status: result?.status, message: result?.error?.message };
  } catch (e) {
    return refusal(e);
  }
}

/** Checks what was seen against the vector's outcome; `prefix` names the command on /send. */
function check(path: Path, seen: Seen, want: Outcome, id: string): void {
  const where = `${id} on ${path}`;
  if (want !== "accepted" && "code" in want) {
    expect(seen.kind, `${where}: refused`).toBe("refused");
    if (seen.kind !== "refused") return;
    const prefix =
      path === "local" || path === "preflight" || path === "localUnverified" ? "" : "cmds[0].";
    const field = want.field === undefined ? undefined : `${prefix}${want.field}`;
    expect(
      seen.errors.some((e) => e.code === want.code && (field === undefined || e.field === field)),
      `${where}: ${want.code} ${field ?? ""} among ${JSON.stringify(seen.errors)}`,
    ).toBe(true);
    return;
  }
  expect(seen, `${where}: accepted`).toMatchObject({ kind: "accepted" });
  if (seen.kind !== "accepted" || seen.status === undefined) return;
  const status = want === "accepted" ? "success" : want.result;
  expect(seen.status, `${where}: ${seen.message ?? ""}`).toBe(status);
  if (want !== "accepted" && want.message !== undefined) {
    expect(seen.message, where).toContain(want.message);
  }
}

describe("[command] the verification rules table (test/vectors/command-rules.json)", () => {
  let x: ExecChain;
  const run = `${process.pid}-${Date.now()}`;
  beforeAll(async () => {
    x = openExecChain();
    // Preflight's times are the parent block's: one recent block, not the 2019 genesis.
    await x.mine(0);
  });
  afterAll(() => x.close());

  it("every vector names a rule, the reference's behaviour with a citation, and an outcome", () => {
    expect(data.cases.length).toBeGreaterThan(60);
    const ids = new Set<string>();
    for (const v of data.cases) {
      expect(ids.has(v.id), v.id).toBe(false);
      ids.add(v.id);
      expect(v.rule.length, v.id).toBeGreaterThan(0);
      expect(v.reference.cite, v.id).toMatch(/^(pact|chainweb-node):src\//);
      expect(v.reference.behaviour.length, v.id).toBeGreaterThan(0);
      expect(Object.keys(v.expect).length, v.id).toBeGreaterThan(0);
    }
  });

  it("the rules table in docs/commands.md names every vector", () => {
    const doc = readFileSync(join(import.meta.dirname, "..", "..", "docs", "commands.md"), "utf8");
    const missing = data.cases.filter((v) => !doc.includes(`\`${v.id}\``)).map((v) => v.id);
    expect(missing).toEqual([]);
  });

  for (const v of data.cases) {
    it(`${v.id}: ${v.rule}`, async () => {
      const nowS = Math.floor(Date.now() / 1000);
      for (const [path, want] of Object.entries(v.expect) as [Path, Outcome][]) {
        // Each path gets its own command (nonce), so /send's mempool never sees one twice.
        const command = buildVector(v, nowS, `${run} ${path}`);
        check(path, await runPath(x, path, command), want, v.id);
      }
    });
  }
});
