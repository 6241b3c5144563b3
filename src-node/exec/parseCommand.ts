/**
 * Structural parsing of a submitted command (`{cmd, hash, sigs}`): the
 * payload inside `cmd` per the spec tables, `hash` as the request key of
 * `cmd`, and `sigs` as signature objects. Node-context rules (network, chain,
 * gas limits, time windows, duplicates) and signature verification are left
 * to the caller, which gets everything it needs in {@link ParsedCommand}.
 * @module
 */
import { isHashText } from "../encoding/base64url.ts";
import type { ParsedCommand } from "./commandTypes.ts";
import { CommandError, CommandErrorCode } from "./errors.ts";
import {
  badField,
  fieldPath,
  optional,
  readArray,
  readObject,
  readString,
  required,
} from "./fieldReaders.ts";
import { parseCommandPayload } from "./parseCommandPayload.ts";
import { parseScheme } from "./parseSigners.ts";
import { isRequestKeyOf, referenceRequestKeyOf, requestKeyOf } from "./requestKey.ts";

const SIG_HEX = /^[0-9a-fA-F]{128}$/;

/**
 * Reads one entry of `sigs`: `{sig}` with optional `pubKey`, `scheme`, `addr`
 * (ignored, but a non-ED25519 scheme is refused). `null` and `{"sig": ""}`
 * are unsigned slots and read as `""`.
 */
function parseSig(value: unknown, field: string): string {
  if (value === null) return "";
  const o = readObject(value, field);
  const sig = required(o, "sig", field);
  const scheme = optional(o, "scheme", field);
  const pubKey = optional(o, "pubKey", field);
  parseScheme(scheme.value, scheme.field);
  if (pubKey.value !== undefined && pubKey.value !== null) readString(pubKey.value, pubKey.field);
  if (sig.value === null) return "";
  const text = readString(sig.value, sig.field);
  if (text !== "" && !SIG_HEX.test(text)) {
    throw badField(sig.field, "64 bytes of hex (128 characters), or an empty string");
  }
  return text;
}

/** CMD_HASH_MISMATCH for `hash` of `cmd`, naming both request keys it could have been. */
export function hashMismatch(field: string, cmd: string, hash: string): CommandError {
  const expected = requestKeyOf(cmd);
  return new CommandError(
    { code: CommandErrorCode.HashMismatch, field, expected, actual: hash },
    `${field}: does not match cmd: the Blake2s-256 request key of cmd is ${expected} (the Blake2b-256 one, as the reference's clients compute it: ${referenceRequestKeyOf(cmd)}), got ${hash}`,
  );
}

/**
 * Parses a command.
 * @param value the decoded JSON of one command.
 * @param prefix names the command in errors, e.g. `"cmds[2]"`; fields read
 *   `cmds[2].cmd.meta.gasLimit`. Empty for a single command.
 * @throws {CommandError} CMD_MISSING_FIELD / CMD_BAD_FIELD / CMD_BAD_JSON /
 *   CMD_UNSUPPORTED_SCHEME naming the field; CMD_HASH_MISMATCH when `hash` is
 *   neither the Blake2s-256 (Weft's) nor the Blake2b-256 (the reference's)
 *   request key of `cmd`.
 * @example parseCommand(JSON.parse(body)).payload.meta.chainId
 */
export function parseCommand(value: unknown, prefix = ""): ParsedCommand {
  const o = readObject(value, prefix === "" ? "command" : prefix);
  const cmd = required(o, "cmd", prefix);
  const hash = required(o, "hash", prefix);
  const sigs = required(o, "sigs", prefix);
  const cmdText = readString(cmd.value, cmd.field);
  const payload = parseCommandPayload(cmdText, cmd.field);
  const hashText = readString(hash.value, hash.field);
  if (!isHashText(hashText)) {
    throw badField(hash.field, "a request key: 43 characters of unpadded base64url");
  }
  if (!isRequestKeyOf(hashText, cmdText)) throw hashMismatch(hash.field, cmdText, hashText);
  const sigList = readArray(sigs.value, sigs.field).map((s, i) =>
    parseSig(s, fieldPath(sigs.field, i)),
  );
  const hashBytes = new Uint8Array(Buffer.from(hashText, "base64url"));
  return { cmd: cmdText, hash: hashText, hashBytes, sigs: sigList, payload };
}
