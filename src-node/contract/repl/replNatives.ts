/**
 * The repl-only natives (reference §10.3): `expect`, `expect-failure`,
 * `expect-that`, `begin-tx`, `commit-tx`, `rollback-tx`, `env-data`,
 * `env-keys`, `env-sigs`, `env-chain-data`, `env-hash`, `env-exec-config`,
 * `print`, `load`. They are bound to one {@link ReplSession}.
 * @module
 */
import { contractFailure, failureOf, renderPactError } from "../errors.ts";
import type { ChainData, SigCapability, Signer } from "../eval/runtimeContext.ts";
import type { Term, Value } from "../eval/term.ts";
import { type Call, lazy, type NativeDef, strict } from "../natives/native.ts";
import { fnOf, isOpaqueValue } from "../natives/valueGuards.ts";
import { decimalFromInteger } from "../values/decimal.ts";
import { valueEquals } from "../values/equality.ts";
import { type JsonValue, pactValueFromJson, parseJsonExact } from "../values/json.ts";
import { renderValue, showValue } from "../values/render.ts";
import { typeOfValue } from "../values/typeOf.ts";
import { makeObject, type PactValue, pList, pString } from "../values/value.ts";
import { createReplEnvNatives } from "./replEnvNatives.ts";
import type { ReplSession } from "./replSession.ts";
import { createReplToolNatives } from "./replToolNatives.ts";

function shown(v: Value): string {
  return isOpaqueValue(v) ? "<function>" : `${showValue(v)} (${typeOfValue(v)})`;
}

function str(c: Call, v: Value | undefined, what: string): string {
  if (v === undefined || v.kind !== "string")
    throw c.evalError(`${c.def.name}: expected ${what} (a string)`);
  return v.value;
}

/** Integers become decimals, as the reference's lenient conversion of env-data does. */
function lenient(v: PactValue): PactValue {
  switch (v.kind) {
    case "integer":
      return { kind: "decimal", value: decimalFromInteger(v.value) };
    case "list":
      return pList(v.items.map(lenient));
    case "object":
      return makeObject([...v.fields].map(([k, x]) => [k, lenient(x)] as const));
    default:
      return v;
  }
}

const CHAIN_FIELDS = [
  "chain-id",
  "block-height",
  "block-time",
  "prev-block-hash",
  "sender",
  "gas-limit",
  "gas-price",
];

export function createReplNatives(s: ReplSession): NativeDef[] {
  const expect = strict(
    "expect",
    [3, 3],
    "doc:string expected:<a> actual:<a> -> string",
    (c, args) => {
      const doc = str(c, args[0], "a description");
      // Functions show as the reference's repl shows them (or fail on chain).
      const exp = c.ip.showFunction(args[1] as Value, c.span);
      const act = c.ip.showFunction(args[2] as Value, c.span);
      const ok = !isOpaqueValue(exp) && !isOpaqueValue(act) && valueEquals(exp, act);
      return pString(
        s.record(
          c.span,
          doc,
          ok,
          ok
            ? `Expect: success: ${doc}`
            : `FAILURE: ${doc}: expected ${shown(exp)}, received ${shown(act)}`,
        ),
      );
    },
  );

  const expectFailure = lazy(
    "expect-failure",
    [2, 3],
    "doc:string exp:<a> -> string, doc:string err:string exp:<a> -> string",
    (c, args, env) => {
      const doc = str(c, c.eval(args[0] as Term, env), "a description");
      const wanted =
        args.length === 3 ? str(c, c.eval(args[1] as Term, env), "an error message") : null;
      const depth = c.ip.depth;
      const saved = c.ip.tx.snapshot();
      let result: Value | null = null;
      let rendered: string | null = null;
      try {
        result = c.ip.showFunction(c.eval(args[args.length - 1] as Term, env), c.span);
      } catch (e) {
        const f = failureOf(e);
        if (f === null) throw e;
        // The evaluation state is restored; database writes stay (as in the reference).
        c.ip.unwindTo(depth);
        c.ip.tx.restore(saved);
        rendered = renderPactError(f);
      }
      if (rendered === null) {
        return pString(
          s.record(
            c.span,
            doc,
            false,
            `FAILURE: ${doc}: expected failure, got result = ${result === null ? "" : shown(result)}`,
          ),
        );
      }
      if (wanted !== null && !rendered.includes(wanted)) {
        return pString(
          s.record(
            c.span,
            doc,
            false,
            `FAILURE: ${doc}: expected error message to contain '${wanted}', got '${rendered}'`,
          ),
        );
      }
      return pString(s.record(c.span, doc, true, `Expect failure: success: ${doc}`));
    },
  );

  const expectThat = strict(
    "expect-that",
    [3, 3],
    "doc:string pred:(value:<a> -> bool) exp:<a> -> string",
    (c, args) => {
      const doc = str(c, args[0], "a description");
      const pred = fnOf(args[1]);
      if (pred === null) throw c.argsError(args);
      const v = args[2] as Value;
      const r = c.apply(pred, [v]);
      if (r.kind !== "bool") throw c.evalError("expect-that: predicate did not return a bool");
      return pString(
        s.record(
          c.span,
          doc,
          r.value,
          r.value ? `Expect-that: success: ${doc}` : `FAILURE: ${doc}: did not satisfy ${shown(v)}`,
        ),
      );
    },
    { fnArgs: [1] },
  );

  const label = (verb: string): string => {
    const t = s.tx;
    return t === null ? `${verb} Tx` : `${verb} Tx ${t.id}${t.name === null ? "" : `: ${t.name}`}`;
  };

  const beginTx = strict("begin-tx", [0, 1], "-> string, name:string -> string", (c, args) => {
    const name = args.length === 1 ? str(c, args[0], "a transaction name") : null;
    // An open transaction is rolled back first, as the reference's database does.
    if (s.tx !== null) {
      s.storage.rollbackTx();
      s.print(`${label("Rollback")} (begin-tx with a transaction open)`);
      s.tx = null;
    }
    s.tx = { id: s.storage.beginTx(), name };
    s.resetEvalState();
    s.gas.used = 0;
    const msg = label("Begin");
    s.print(msg);
    return pString(msg);
  });

  const endTx = (verb: "Commit" | "Rollback"): NativeDef =>
    strict(verb === "Commit" ? "commit-tx" : "rollback-tx", [0, 0], "-> string", (c) => {
      // Rolling back with no transaction open does nothing, as in the reference.
      if (s.tx === null && verb === "Commit")
        throw c.evalError(`${c.def.name}: no transaction is open`);
      if (verb === "Commit") s.storage.commitTx();
      else if (s.tx !== null) s.storage.rollbackTx();
      s.resetEvalState();
      s.gas.used = 0;
      const msg = label(verb);
      s.tx = null;
      s.print(msg);
      return pString(msg);
    });

  const envData = strict(
    "env-data",
    [1, 1],
    "json:<a[integer,string,time,decimal,bool,[<l>],object:<{o}>,keyset]> -> string",
    (c, args) => {
      const v = args[0] as Value;
      if (isOpaqueValue(v)) throw c.argsError(args);
      let data: PactValue;
      if (v.kind === "string") {
        const j: JsonValue | null = parseJsonExact(v.value);
        if (j === null) throw c.evalError("env-data: the string is not valid JSON");
        const r = pactValueFromJson(j);
        if (!r.ok) throw c.evalError(`env-data: ${r.error}`);
        data = r.value;
      } else {
        data = lenient(v);
      }
      s.setEnv({ data });
      return pString("Setting transaction data");
    },
  );

  const envKeys = strict("env-keys", [1, 1], "keys:[string] -> string", (c, args) => {
    const l = args[0] as Value;
    if (l.kind !== "list") throw c.argsError(args);
    const signers: Signer[] = l.items.map((k) => {
      if (k.kind !== "string") throw c.argsError(args);
      return { pubKey: k.value, scheme: "ED25519", caps: [] };
    });
    s.setEnv({ signers });
    return pString("Setting transaction keys");
  });

  const envSigs = lazy(
    "env-sigs",
    [1, 1],
    "sigs:[object:{key:string caps:[capability]}] -> string",
    (c, args, env) => {
      const t = args[0] as Term;
      const items: Term[] = t.kind === "list" ? [...t.items] : [];
      if (t.kind === "lit" && t.value.kind === "list") {
        for (const x of t.value.items) items.push({ kind: "lit", value: x, span: t.span });
      } else if (t.kind !== "list") {
        throw c.evalError('env-sigs: expected a list literal of {"key": …, "caps": […]} objects');
      }
      const signers: Signer[] = items.map((it) => signerOf(c, it, env));
      s.setEnv({ signers });
      return pString("Setting transaction signatures/caps");
    },
  );

  const signerOf = (c: Call, t: Term, env: Parameters<Call["eval"]>[1]): Signer => {
    let keyV: Value | undefined;
    let capsT: Term | undefined;
    if (t.kind === "object") {
      t.keys.forEach((k, i) => {
        if (k === "key") keyV = c.eval(t.values[i] as Term, env);
        else if (k === "caps") capsT = t.values[i];
      });
    } else if (t.kind === "lit" && t.value.kind === "object") {
      keyV = t.value.fields.get("key");
      const caps = t.value.fields.get("caps");
      if (caps !== undefined) capsT = { kind: "lit", value: caps, span: t.span };
    } else {
      throw c.evalError('env-sigs: each signature is an object {"key": …, "caps": […]}');
    }
    const key = str(c, keyV, 'a "key"');
    const caps: SigCapability[] = [];
    if (capsT !== undefined) {
      if (capsT.kind === "list") {
        for (const ct of capsT.items) caps.push(capOf(c, ct, env));
      } else if (
        !(capsT.kind === "lit" && capsT.value.kind === "list" && capsT.value.items.length === 0)
      ) {
        throw c.evalError('env-sigs: "caps" must be a list of capability applications');
      }
    }
    return { pubKey: key, scheme: "ED25519", caps };
  };

  // A capability is written as an application, (mod.CAP args…); it is recorded, not run.
  const capOf = (c: Call, t: Term, env: Parameters<Call["eval"]>[1]): SigCapability => {
    if (t.kind !== "app") throw c.evalError("env-sigs: a capability is written (module.CAP arg…)");
    const f = t.fn;
    const name =
      f.kind === "free"
        ? f.name
        : f.kind === "def"
          ? f.cell.def !== null && f.cell.def.kind === "defcap"
            ? f.cell.def.fqName
            : f.cell.name
          : f.kind === "native"
            ? f.def.name
            : f.kind === "local"
              ? f.name
              : null;
    if (name === null) throw c.evalError("env-sigs: a capability is written (module.CAP arg…)");
    const argVals: PactValue[] = t.args.map((a) => {
      const v = c.eval(a, env);
      if (isOpaqueValue(v)) throw c.evalError("env-sigs: capability arguments must be values");
      return v;
    });
    return { name, args: argVals };
  };

  const envChainData = strict(
    "env-chain-data",
    [1, 1],
    "new-data:object:{public-chain-data} -> string",
    (c, args) => {
      const o = args[0] as Value;
      if (o.kind !== "object") throw c.argsError(args);
      const cur = { ...(s.pending.chainData ?? s.env.chainData) } as {
        -readonly [K in keyof ChainData]: ChainData[K];
      };
      for (const [k, v] of o.fields) {
        const bad = (): never => {
          throw c.evalError(`env-chain-data: bad value for ${k}: ${showValue(v)}`);
        };
        switch (k) {
          case "chain-id":
            cur.chainId = v.kind === "string" ? v.value : bad();
            break;
          case "block-height":
            cur.blockHeight = v.kind === "integer" ? v.value : bad();
            break;
          case "block-time":
            cur.blockTime = v.kind === "time" ? v.micros : bad();
            break;
          case "prev-block-hash":
            cur.prevBlockHash = v.kind === "string" ? v.value : bad();
            break;
          case "sender":
            cur.sender = v.kind === "string" ? v.value : bad();
            break;
          case "gas-limit":
            cur.gasLimit = v.kind === "integer" ? v.value : bad();
            break;
          case "gas-price":
            cur.gasPrice =
              v.kind === "decimal"
                ? v.value
                : v.kind === "integer"
                  ? decimalFromInteger(v.value)
                  : bad();
            break;
          default:
            throw c.evalError(
              `env-chain-data: unknown field ${k}; expected one of ${CHAIN_FIELDS.join(", ")}`,
            );
        }
      }
      s.setEnv({ chainData: cur });
      return pString("Updated public metadata");
    },
  );

  const envHash = strict("env-hash", [1, 1], "hash:string -> string", (c, args) => {
    const h = str(c, args[0], "a hash");
    // Any unpadded base64url text is accepted, as the reference does (tests set short ones).
    if (!/^[A-Za-z0-9_-]*$/.test(h) || h.length % 4 === 1)
      throw c.evalError(`Bad hash value: ${h}: not unpadded base64url`);
    s.setEnv({ txHash: h });
    return pString(`Set tx hash to ${h}`);
  });

  const envExecConfig = strict(
    "env-exec-config",
    [0, 1],
    "-> [string], flags:[string] -> [string]",
    (c, args) => {
      if (args.length === 1) {
        const l = args[0] as Value;
        if (l.kind !== "list") throw c.argsError(args);
        const flags = new Set<string>();
        for (const f of l.items) {
          if (f.kind !== "string") throw c.argsError(args);
          flags.add(f.value);
        }
        s.setEnv({ execFlags: flags });
        return pList([...flags].sort().map(pString));
      }
      return pList([...(s.pending.execFlags ?? s.env.execFlags)].sort().map(pString));
    },
  );

  const print = strict("print", [1, 1], "value:<a> -> string", (c, args) => {
    const v = args[0] as Value;
    if (isOpaqueValue(v)) throw c.argsError(args);
    const text = renderValue(v, true);
    s.print(text);
    return pString(text);
  });

  const load = strict(
    "load",
    [1, 2],
    "file:string -> string, file:string reset:bool -> string",
    (c, args) => {
      const path = str(c, args[0], "a file name");
      const r = s.load(c.span.file, path);
      if (!r.ok)
        throw contractFailure(
          r.error.kind,
          r.error.message,
          r.error.span ?? c.span,
          r.error.callStack,
        );
      const msg = `Loaded ${r.file}`;
      return pString(msg);
    },
  );

  return [
    ...createReplEnvNatives(s),
    ...createReplToolNatives(s),
    expect,
    expectFailure,
    expectThat,
    beginTx,
    endTx("Commit"),
    endTx("Rollback"),
    envData,
    envKeys,
    envSigs,
    envChainData,
    envHash,
    envExecConfig,
    print,
    load,
  ];
}
