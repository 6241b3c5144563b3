/**
 * Native family: SPV — `verify-spv TYPE PAYLOAD` checks a proof through the
 * verifier the runtime context injects (the execution area's, or the repl's
 * `mock-spv`).
 * @module
 */
import type { Value } from "../eval/term.ts";
import { type NativeDef, strict } from "./native.ts";

const verifySpv = strict(
  "verify-spv",
  [2, 2],
  "type:string payload:object:<in> -> object:<out>",
  (c, args) => {
    const t = args[0] as Value;
    const p = args[1] as Value;
    if (t.kind !== "string" || p.kind !== "object") throw c.argsError(args);
    const spv = c.ctx.spv;
    if (spv === null)
      throw c.fail("TxFailure", "verify-spv: SPV verification is not supported here");
    const r = spv.verify(t.value, p);
    if (!r.ok) throw c.fail("TxFailure", `verify-spv: ${r.error}`);
    return r.value;
  },
);

export const spvNatives: readonly NativeDef[] = [verifySpv];
