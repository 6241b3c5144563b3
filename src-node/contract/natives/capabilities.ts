/**
 * Native family: capabilities (reference §4) — `with-capability`,
 * `require-capability`, `compose-capability`, `install-capability`,
 * `emit-event`. Each takes its capability as an application `(CAP arg…)`,
 * read unevaluated (capabilities cannot be called as functions).
 * @module
 */
import {
  capToString,
  composeCapability,
  emitEvent,
  isAcquired,
  withCapability,
} from "../eval/capabilities.ts";
import type { Term } from "../eval/term.ts";
import { pString, TRUE } from "../values/value.ts";
import { capabilityOf } from "./capabilityTerms.ts";
import { lazy, type NativeDef, VARIADIC } from "./native.ts";

const withCapabilityNative = lazy(
  "with-capability",
  [2, VARIADIC],
  "capability:(CAP arg…) body:<a> … -> <a>",
  (c, args, env) => {
    const r = capabilityOf(c, args[0] as Term, env);
    return withCapability(c.ip, r, c.span, () => c.ip.evalBody(args.slice(1), env));
  },
);

const requireCapability = lazy(
  "require-capability",
  [1, 1],
  "capability:(CAP arg…) -> bool",
  (c, args, env) => {
    const r = capabilityOf(c, args[0] as Term, env);
    if (!isAcquired(c.ip, r.cap))
      throw c.fail("TxFailure", `require-capability: not granted: ${capToString(r.cap)}`);
    return TRUE;
  },
);

const composeCapabilityNative = lazy(
  "compose-capability",
  [1, 1],
  "capability:(CAP arg…) -> bool",
  (c, args, env) => {
    composeCapability(c.ip, capabilityOf(c, args[0] as Term, env), c.span);
    return TRUE;
  },
);

const installCapability = lazy(
  "install-capability",
  [1, 1],
  "capability:(CAP arg…) -> string",
  (c, args, env) => {
    if (c.ip.inDefcap) throw c.evalError("install-capability not allowed within defcap execution");
    const r = capabilityOf(c, args[0] as Term, env);
    c.ip.tx.autonomous = [...c.ip.tx.autonomous, r.cap];
    return pString("Installed capability");
  },
);

const emitEventNative = lazy(
  "emit-event",
  [1, 1],
  "capability:(CAP arg…) -> bool",
  (c, args, env) => {
    emitEvent(c.ip, capabilityOf(c, args[0] as Term, env), c.span);
    return TRUE;
  },
);

export const capabilityNatives: readonly NativeDef[] = [
  withCapabilityNative,
  requireCapability,
  composeCapabilityNative,
  installCapability,
  emitEventNative,
];
