/**
 * The repl natives of part 3, the reference's testing tools beyond the basic
 * environment: `sig-keyset`, `env-simulate-onchain`, `env-entity`,
 * `with-applied-env`, `env-gasrate`, `env-gasprice`, `env-gaslog`,
 * `env-dynref` and `verify` (formal verification is out of scope and says so).
 * Bound to one {@link ReplSession}.
 * @module
 */
import type { Term, Value } from "../eval/term.ts";
import { lazy, type NativeDef, strict } from "../natives/native.ts";
import { keysetGuard } from "../values/json.ts";
import { pList, pString } from "../values/value.ts";
import type { ReplSession } from "./replSession.ts";

export function createReplToolNatives(s: ReplSession): NativeDef[] {
  // The keys of the current signers, all required (as the reference builds it).
  const sigKeyset = strict("sig-keyset", [0, 0], "-> keyset", (c) => {
    const g = keysetGuard(
      c.ctx.signers.map((x) => x.pubKey),
      "keys-all",
    );
    return { kind: "guard", guard: g };
  });

  const envSimulateOnchain = strict(
    "env-simulate-onchain",
    [1, 1],
    "on-chain:bool -> string",
    (c, args) => {
      const b = args[0] as Value;
      if (b.kind !== "bool") throw c.argsError(args);
      s.setEnv({ onChain: b.value });
      return pString(`Set on-chain simulation execution mode to: ${b.value ? "true" : "false"}`);
    },
  );

  const envEntity = strict(
    "env-entity",
    [0, 1],
    "-> string, entity:string -> string",
    (c, args) => {
      const e = args[0];
      if (e === undefined) {
        s.setEnv({ entity: null });
        return pString("Unset entity");
      }
      if (e.kind !== "string") throw c.argsError(args);
      s.setEnv({ entity: e.value });
      return pString(`Set entity to ${e.value}`);
    },
  );

  // Pending environment changes take effect for EXEC only, and are consumed by it.
  const withAppliedEnv = lazy("with-applied-env", [1, 1], "exec:<a> -> <a>", (c, args, env) => {
    const pending = s.takePending();
    const ip = c.ip;
    const saved = ip.ctx;
    ip.ctx = s.contextOf({ ...s.env, ...pending }, saved.meter);
    try {
      return c.eval(args[0] as Term, env);
    } finally {
      ip.ctx = saved;
    }
  });

  const envGasrate = strict("env-gasrate", [1, 1], "rate:integer -> string", (c, args) => {
    const r = args[0] as Value;
    if (r.kind !== "integer" || r.value < 0n || r.value > BigInt(Number.MAX_SAFE_INTEGER))
      throw c.argsError(args);
    s.gas.model = { kind: "fixed", rate: Number(r.value) };
    return pString(`Set gas model to constant rate gas model with fixed rate ${r.value}`);
  });

  const envGasprice = strict("env-gasprice", [1, 1], "price:decimal -> string", (c, args) => {
    const p = args[0] as Value;
    if (p.kind !== "decimal") throw c.argsError(args);
    s.setEnv({ chainData: { ...(s.pending.chainData ?? s.env.chainData), gasPrice: p.value } });
    return pString("Set gas price");
  });

  // The first call starts a log; each later call returns what was charged since, and restarts it.
  const envGaslog = strict("env-gaslog", [0, 0], "-> string", () => {
    const logged = s.gas.takeLog();
    if (logged === null) return pString("Enabled gas log");
    const total = logged.reduce((a, e) => a + e.units, 0);
    return pList([
      pString(`TOTAL: ${total}`),
      ...logged.map((e) => pString(`${e.name}: ${e.units}`)),
    ]);
  });

  // Only the static checker and verifier read substitutions, and weft has neither.
  const envDynref = strict(
    "env-dynref",
    [0, 2],
    "-> string, iface:module impl:module{} -> string",
    (c, args) => {
      if (args.length === 0) return pString("Cleared dynamic ref environment.");
      if (args.length !== 2 || args.some((a) => a.kind !== "modref")) throw c.argsError(args);
      return pString(
        "Added dynamic ref to environment (used only by typecheck and verify, which weft does not implement).",
      );
    },
  );

  const verify = strict(
    "verify",
    [1, 2],
    "module:string -> string, module:string debug:bool -> string",
    (c, args) => {
      const m = args[0] as Value;
      if (m.kind !== "string" || (args[1] !== undefined && args[1].kind !== "bool"))
        throw c.argsError(args);
      throw c.evalError(
        `verify: formal verification is not supported by weft (out of scope); ${m.value} was not verified`,
      );
    },
  );

  return [
    sigKeyset,
    envSimulateOnchain,
    envEntity,
    withAppliedEnv,
    envGasrate,
    envGasprice,
    envGaslog,
    envDynref,
    verify,
  ];
}
