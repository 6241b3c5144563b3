/**
 * What the key pages say about a failed vault or save action: the vault's codes become short
 * sentences (a wrong password says only that), anything else its message.
 * @module
 */
import { VaultRequestError } from "./vaultClient.ts";
import { VaultErrorCode } from "./vaultProtocol.ts";

/** One sentence for the page about `e`. */
export function vaultProblem(e: unknown): string {
  if (e instanceof VaultRequestError) {
    switch (e.code) {
      case VaultErrorCode.WrongPassword:
        return "Wrong password.";
      case VaultErrorCode.Throttled:
        return `Too many wrong passwords. Try again in ${Math.ceil((e.retryAfterMs ?? 1000) / 1000)} s.`;
      case VaultErrorCode.Locked:
        return "The wallet is locked. Unlock it first.";
      default:
        return (
          e.message.charAt(0).toUpperCase() +
          e.message.slice(1) +
          (e.message.endsWith(".") ? "" : ".")
        );
    }
  }
  return e instanceof Error ? e.message : String(e);
}

/** Why a new password cannot be used (empty, too short, or the two differ), else null. */
export function newPasswordProblem(password: string, again: string): string | null {
  if (password.length < 8) return "Use at least 8 characters.";
  if (password !== again) return "The two passwords differ.";
  return null;
}
