/**
 * The vault's dedicated Web Worker (started by vaultClient.ts): the only place the unlocked
 * phrase and keys live (docs/wallet.md "Threat model"). Each message is parsed before it is
 * acted on; answers repeat the request's id; the idle time-out sends a `locked` event.
 * @module
 */
import { VaultCore, VaultError } from "./vaultCore.ts";
import { parseVaultRequest, VaultErrorCode, type VaultMessage } from "./vaultProtocol.ts";

/** The worker's global scope, typed by what this file uses (the DOM lib types `self` as a window). */
const scope = self as unknown as {
  postMessage(message: unknown): void;
  onmessage: ((e: MessageEvent<unknown>) => void) | null;
};

function post(m: VaultMessage): void {
  scope.postMessage(m);
}

const vault = new VaultCore({ onIdleLock: () => post({ event: "locked", reason: "idle" }) });

scope.onmessage = (e: MessageEvent<unknown>) => {
  const data = e.data as { id?: unknown } | null;
  const id = typeof data?.id === "number" && Number.isSafeInteger(data.id) ? data.id : -1;
  if (id < 0) return;
  const parsed = parseVaultRequest(data);
  if (!parsed.ok) {
    post({ id, ok: false, error: { code: VaultErrorCode.BadRequest, message: parsed.error } });
    return;
  }
  try {
    post({ id, ok: true, result: vault.handle(parsed.value) });
  } catch (err) {
    if (err instanceof VaultError) {
      post({
        id,
        ok: false,
        error: { code: err.code, message: err.message, retryAfterMs: err.retryAfterMs },
      });
    } else {
      // Never the error's text: it could quote what failed to parse.
      post({
        id,
        ok: false,
        error: { code: VaultErrorCode.BadRequest, message: "the vault could not do that" },
      });
    }
  }
};
