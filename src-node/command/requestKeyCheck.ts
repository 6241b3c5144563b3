/**
 * Which `hash` values a command may carry: Weft's request key (Blake2s-256 of
 * `cmd`, from the model's {@link CommandCrypto}) or the reference ledger's
 * (Blake2b-256), which every client library, wallet and tool of its ecosystem
 * computes and signs; a command carrying the latter keeps it as its request
 * key (docs/commands.md), so those tools work unchanged.
 * @module
 */
import { blake2b } from "@noble/hashes/blake2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { base64urlnopad } from "@scure/base";
import type { CommandCrypto } from "./commandCrypto.ts";
import { CommandError, CommandErrorCode } from "./errors.ts";

/** The reference ledger's request key of `cmd`: Blake2b-256, as the ecosystem's clients compute it. */
export function referenceRequestKeyOf(cmd: string): string {
  return base64urlnopad.encode(blake2b(utf8ToBytes(cmd), { dkLen: 32 }));
}

/** Whether `key` is Weft's or (computed only when the first does not match) the reference's request key of `cmd`. */
export function isRequestKeyOf(crypto: CommandCrypto, key: string, cmd: string): boolean {
  return key === crypto.requestKeyOf(cmd) || key === referenceRequestKeyOf(cmd);
}

/** CMD_HASH_MISMATCH for `hash` of `cmd`, naming both request keys it could have been. */
export function hashMismatch(
  crypto: CommandCrypto,
  field: string,
  cmd: string,
  hash: string,
): CommandError {
  const expected = crypto.requestKeyOf(cmd);
  return new CommandError(
    { code: CommandErrorCode.HashMismatch, field, expected, actual: hash },
    `${field}: does not match cmd: the Blake2s-256 request key of cmd is ${expected} (the Blake2b-256 one, as the reference's clients compute it: ${referenceRequestKeyOf(cmd)}), got ${hash}`,
  );
}
