/**
 * Structural parsing of a submitted command (`{cmd, hash, sigs}`): the
 * payload inside `cmd` per the spec tables, `hash` as the request key of
 * `cmd`, and `sigs` as signature objects. Node-context rules (network, chain,
 * gas limits, time windows, duplicates) and signature verification are left
 * to the caller, which gets everything it needs in {@link ParsedCommand}.
 * @module
 */
import type { CommandCrypto } from "./commandCrypto.ts";
import type { ParsedCommand } from "./commandTypes.ts";
import {
  badField,
  fieldPath,
  isRequestKeyText,
  optional,
  readArray,
  readObject,
  readString,
  required,
} from "./fieldReaders.ts";
import { parseCommandPayload } from "./parseCommandPayload.ts";
import { parseScheme } from "./parseSigners.ts";
import { requestKeyBytes } from "./requestKeyBytes.ts";
import { hashMismatch, isRequestKeyOf } from "./requestKeyCheck.ts";

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

/**
 * Parses a command; `cmd` is parsed once (parseCommandPayload.ts).
 * @param crypto computes the request key `hash` is checked against.
 * @param value the decoded JSON of one command.
 * @param prefix names the command in errors, e.g. `"cmds[2]"`; fields read
 *   `cmds[2].cmd.meta.gasLimit`. Empty for a single command.
 * @throws {CommandError} CMD_MISSING_FIELD / CMD_BAD_FIELD / CMD_BAD_JSON /
 *   CMD_UNSUPPORTED_SCHEME naming the field; CMD_HASH_MISMATCH when `hash` is
 *   neither the Blake2s-256 (Weft's) nor the Blake2b-256 (the reference's)
 *   request key of `cmd` (requestKeyCheck.ts).
 * @example parseCommand(crypto, JSON.parse(body)).payload.meta.chainId
 */
export function parseCommand(crypto: CommandCrypto, value: unknown, prefix = ""): ParsedCommand {
  const o = readObject(value, prefix === "" ? "command" : prefix);
  const cmd = required(o, "cmd", prefix);
  const hash = required(o, "hash", prefix);
  const sigs = required(o, "sigs", prefix);
  const cmdText = readString(cmd.value, cmd.field);
  const payload = parseCommandPayload(cmdText, cmd.field);
  const hashText = readString(hash.value, hash.field);
  if (!isRequestKeyText(hashText)) {
    throw badField(hash.field, "a request key: 43 characters of unpadded base64url");
  }
  if (!isRequestKeyOf(crypto, hashText, cmdText)) {
    throw hashMismatch(crypto, hash.field, cmdText, hashText);
  }
  const sigList = readArray(sigs.value, sigs.field).map((s, i) =>
    parseSig(s, fieldPath(sigs.field, i)),
  );
  const hashBytes = requestKeyBytes(hashText, hash.field);
  return { cmd: cmdText, hash: hashText, hashBytes, sigs: sigList, payload };
}
