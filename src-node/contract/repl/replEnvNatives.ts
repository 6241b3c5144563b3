/**
 * The repl natives of part 2 (reference §10.3): `env-events`, `env-gasmodel`,
 * `env-gaslimit`, `env-gas`, `test-capability`, `continue-pact`,
 * `pact-state`, `env-namespace-policy`, `env-enable-repl-natives`,
 * `mock-spv`, `typecheck`. Bound to one {@link ReplSession}.
 * @module
 */
import { grantForTx } from "../eval/capabilities.ts";
import { continuePact } from "../eval/defpacts.ts";
import { loadModule } from "../eval/modules.ts";
import type { Term, Value } from "../eval/term.ts";
import { capabilityOf } from "../natives/capabilityTerms.ts";
import { lazy, type NativeDef, strict } from "../natives/native.ts";
import { qualifiedModuleName } from "../storage/moduleRecord.ts";
import { parseProgram } from "../syntax/parser.ts";
import {
  FALSE,
  makeObject,
  type PactValue,
  pBool,
  pInteger,
  pList,
  pString,
} from "../values/value.ts";
import { moduleDefpactProblem } from "./defpactStepCheck.ts";
import type { ReplSession } from "./replSession.ts";
import { spvMockKey } from "./replSession.ts";

export function createReplEnvNatives(s: ReplSession): NativeDef[] {
  const envEvents = strict("env-events", [1, 1], "clear:bool -> [object:*]", (c, args) => {
    const clear = args[0] as Value;
    if (clear.kind !== "bool") throw c.argsError(args);
    const events = c.ip.tx.events.map((e) =>
      makeObject([
        ["name", pString(`${qualifiedModuleName(e.module.namespace, e.module.name)}.${e.name}`)],
        ["params", pList(e.params)],
        ["module-hash", pString(e.moduleHash)],
      ]),
    );
    if (clear.value) c.ip.tx.events = [];
    return pList(events);
  });

  const envGasmodel = strict(
    "env-gasmodel",
    [0, 2],
    "-> string, model:string -> string, model:string rate:integer -> string",
    (c, args) => {
      if (args.length === 0) {
        const m = s.gas.model;
        return pString(
          m.kind === "table"
            ? "Current gas model is 'table'"
            : `Current gas model is 'fixed ${m.rate}'`,
        );
      }
      const m = args[0] as Value;
      const r = args[1];
      if (m.kind !== "string" || (r !== undefined && r.kind !== "integer")) throw c.argsError(args);
      if (m.value === "table" && r === undefined) s.gas.model = { kind: "table" };
      else if (m.value === "fixed") {
        const rate = r === undefined ? 0 : Number((r as { value: bigint }).value);
        if (!Number.isSafeInteger(rate) || rate < 0) throw c.evalError("env-gasmodel: bad rate");
        s.gas.model = { kind: "fixed", rate };
      } else throw c.evalError(`env-gasmodel: unknown model ${m.value} (table, fixed RATE)`);
      return pString(
        `Set gas model to ${m.value === "table" ? "table-based cost model" : `fixed rate ${r === undefined ? 0 : (r as { value: bigint }).value}`}`,
      );
    },
  );

  const envGaslimit = strict("env-gaslimit", [1, 1], "limit:integer -> string", (c, args) => {
    const l = args[0] as Value;
    if (l.kind !== "integer" || l.value < 0n || l.value > BigInt(Number.MAX_SAFE_INTEGER))
      throw c.argsError(args);
    s.gas.limit = Number(l.value);
    return pString(`Set gas limit to ${l.value}`);
  });

  const envGas = strict("env-gas", [0, 1], "-> integer, gas:integer -> string", (c, args) => {
    if (args.length === 0) return pInteger(BigInt(s.gas.used));
    const g = args[0] as Value;
    if (g.kind !== "integer" || g.value < 0n || g.value > BigInt(Number.MAX_SAFE_INTEGER))
      throw c.argsError(args);
    s.gas.used = Number(g.value);
    return pString(`Set gas to ${g.value}`);
  });

  const testCapability = lazy(
    "test-capability",
    [1, 1],
    "capability:(CAP arg…) -> string",
    (c, args, env) => {
      const r = capabilityOf(c, args[0] as Term, env);
      return pString(
        grantForTx(c.ip, r, c.span) === "installed"
          ? "Capability installed"
          : "Capability acquired",
      );
    },
  );

  const continuePactNative = strict(
    "continue-pact",
    [1, 4],
    "step:integer -> string, step:integer rollback:bool -> string, step:integer rollback:bool pact-id:string -> string, step:integer rollback:bool pact-id:string yielded:object:* -> string",
    (c, args) => {
      const [st, rb, id, y] = args;
      if (
        st?.kind !== "integer" ||
        (rb !== undefined && rb.kind !== "bool") ||
        (id !== undefined && id.kind !== "string") ||
        (y !== undefined && y.kind !== "object")
      )
        throw c.argsError(args);
      // The defpact of this transaction: started earlier in this form (module code may
      // call continue-pact), or by an earlier form.
      const pactId =
        id?.kind === "string"
          ? id.value
          : (c.ip.tx.pactExec?.pactId ?? s.lastPactExec?.pactId ?? null);
      if (pactId === null)
        throw c.evalError("continue-pact: No pact id supplied and no pact exec in context");
      if (st.value < 0n || st.value > 1_000_000n) throw c.evalError("continue-pact: bad step");
      return continuePact(
        c.ip,
        {
          pactId,
          step: Number(st.value),
          rollback: rb?.kind === "bool" ? rb.value : false,
          proven: null,
          yieldData: y?.kind === "object" ? y : null,
        },
        c.span,
      );
    },
  );

  const pactState = strict(
    "pact-state",
    [0, 1],
    "-> object:*, clear:bool -> object:*",
    (c, args) => {
      const clear = args[0];
      if (clear !== undefined && clear.kind !== "bool") throw c.argsError(args);
      const e = s.lastPactExec ?? c.ip.tx.pactExec;
      if (clear?.kind === "bool" && clear.value) {
        s.lastPactExec = null;
        c.ip.tx.pactExec = null;
        if (e === null) return pString("Cleared pact state");
      }
      if (e === null) throw c.evalError("pact-state: no pact exec in context");
      return makeObject([
        ["pactId", pString(e.pactId)],
        ["step", pInteger(BigInt(e.step))],
        ["yield", e.yield === null ? FALSE : e.yield.data],
        ["executed", pBool(e.executed ?? true)],
      ]);
    },
  );

  const envNamespacePolicy = lazy(
    "env-namespace-policy",
    [2, 2],
    "allow-root:bool ns-policy-fun:(ns:string ns-admin:guard -> bool) -> string",
    (c, args, env) => {
      const allow = c.eval(args[0] as Term, env);
      if (allow.kind !== "bool") throw c.evalError("env-namespace-policy: allow-root is a bool");
      const t = args[1] as Term;
      const f = t.kind === "app" && t.args.length === 0 ? c.eval(t.fn, env) : c.eval(t, env);
      if (f.kind !== "userFn" || f.def.kind !== "defun")
        throw c.evalError(
          "env-namespace-policy: the policy is a module function (ns admin-guard) -> bool",
        );
      s.setEnv({
        namespacePolicy: { kind: "smart", allowRoot: allow.value, validator: f.def.fqName },
      });
      return pString("Installed namespace policy");
    },
  );

  const envEnableReplNatives = strict(
    "env-enable-repl-natives",
    [1, 1],
    "enable:bool -> string",
    (c, args) => {
      const b = args[0] as Value;
      if (b.kind !== "bool") throw c.argsError(args);
      s.replNativesInModules = b.value;
      return pString(`Repl natives ${b.value ? "enabled" : "disabled"}`);
    },
  );

  const mockSpv = strict(
    "mock-spv",
    [3, 3],
    "type:string payload:object:* output:object:* -> string",
    (c, args) => {
      const [t, p, o] = args as [Value, Value, Value];
      if (t.kind !== "string" || p.kind !== "object" || o.kind !== "object")
        throw c.argsError(args);
      s.spvMocks.set(spvMockKey(t.value, p as PactValue), o as PactValue);
      return pString(`Added mock SPV for ${t.value}`);
    },
  );

  const typecheck = strict(
    "typecheck",
    [1, 2],
    "module:string -> string, module:string debug:bool -> string",
    (c, args) => {
      const m = args[0] as Value;
      if (m.kind !== "string") throw c.argsError(args);
      const loaded = loadModule(c.ip, m.value, c.span);
      if (loaded === null) throw c.evalError(`typecheck: module not found: ${m.value}`);
      // Of the static checker only the defpacts' yield/resume structure is checked (the
      // rest is out of scope): arguments and results are checked at run time instead.
      const form = parseProgram(
        loaded.record.code,
        loaded.record.origin.file,
        loaded.record.origin,
      )[0];
      const problem = form === undefined ? null : moduleDefpactProblem(form);
      if (problem !== null) throw c.evalError(`Typechecker Internal Error: ${problem}`);
      s.print(
        `typecheck: weft checks only defpact steps statically; ${m.value}'s types are checked at run time`,
      );
      return pString(`Typecheck ${m.value}: success`);
    },
  );

  return [
    envEvents,
    envGasmodel,
    envGaslimit,
    envGas,
    testCapability,
    continuePactNative,
    pactState,
    envNamespacePolicy,
    envEnableReplNatives,
    mockSpv,
    typecheck,
  ];
}
