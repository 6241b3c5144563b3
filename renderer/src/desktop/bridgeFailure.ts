/**
 * The bridge between the desktop bridge's `InvokeResult` values and the query library, which
 * wants failures thrown (as `api/clientFailure.ts` is for the HTTP client): `unwrapBridge`
 * throws a `BridgeFailure` carrying the `BridgeError`, and `bridgeErrorOf` gets it back for
 * the UI to word (`desktopErrorWords`).
 * @module
 */
import type { BridgeError, InvokeResult } from "../../../electron/ipc/contract.ts";

export class BridgeFailure extends Error {
  readonly bridgeError: BridgeError;
  constructor(bridgeError: BridgeError) {
    super(bridgeError.message);
    this.name = "BridgeFailure";
    this.bridgeError = bridgeError;
  }
}

/** The value of a successful bridge call; throws a {@link BridgeFailure} otherwise. */
export async function unwrapBridge<T>(call: Promise<InvokeResult<T>>): Promise<T> {
  const r = await call;
  if (r.ok) return r.value;
  throw new BridgeFailure(r.error);
}

/** The bridge error behind a thrown value (anything else keeps its message, without a code). */
export function bridgeErrorOf(e: unknown): BridgeError {
  if (e instanceof BridgeFailure) return e.bridgeError;
  return { code: "DESKTOP_FAILED", message: e instanceof Error ? e.message : String(e) };
}
