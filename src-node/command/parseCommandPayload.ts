/**
 * Reads the JSON text of `cmd` into a typed {@link CommandPayload}, parsing
 * it once, exactly (command/exactJson.ts): message data and capability
 * arguments keep every number's text, which the contract language needs
 * (`1.0` is a decimal, `{"int":1}` an integer), so nothing reads `cmd` again.
 * Unknown members are ignored (the hash covers the exact text, so they
 * cannot be altered in transit, and newer clients may add fields), except
 * `verifiers`, which must name no verifier plugin (Weft runs none).
 * @module
 */
import type { CommandPayload } from "./commandTypes.ts";
import { CommandError, CommandErrorCode } from "./errors.ts";
import { readJsonExact } from "./exactJson.ts";
import { optional, readArray, readObject, readString, required } from "./fieldReaders.ts";
import { parsePayloadMessage } from "./parsePayloadMessage.ts";
import { parsePublicMeta } from "./parsePublicMeta.ts";
import { parseSigners } from "./parseSigners.ts";

/**
 * Refuses a `verifiers` list naming any verifier plugin. The reference runs the plugins a
 * command names and lets them grant capabilities; Weft runs none, so such a command could only
 * fail (the reference, with no plugin enabled, fails it with "verifier does not exist"). It is
 * refused at the door instead, before anyone pays gas for it; absent, null and [] are none.
 */
function checkVerifiers(value: unknown, field: string): void {
  if (value === undefined || value === null) return;
  const list = readArray(value, field);
  if (list.length === 0) return;
  const names = list.map((v) => {
    const name = typeof v === "object" && v !== null ? (v as { name?: unknown }).name : undefined;
    return typeof name === "string" ? name : "(unnamed)";
  });
  throw new CommandError(
    { code: CommandErrorCode.UnsupportedVerifier, field, names },
    `${field}: verifier plugins are not supported (named: ${names.map((n) => JSON.stringify(n)).join(", ")}); Weft runs none, leave verifiers out`,
  );
}

/** Reads an already-decoded payload object at `field` (e.g. `"cmd"`). */
export function parsePayloadObject(value: unknown, field: string): CommandPayload {
  const o = readObject(value, field);
  const payload = required(o, "payload", field);
  const meta = required(o, "meta", field);
  const signers = required(o, "signers", field);
  const networkId = optional(o, "networkId", field);
  const nonce = required(o, "nonce", field);
  const verifiers = optional(o, "verifiers", field);
  checkVerifiers(verifiers.value, verifiers.field);
  return {
    payload: parsePayloadMessage(payload.value, payload.field),
    meta: parsePublicMeta(meta.value, meta.field),
    signers: parseSigners(signers.value, signers.field),
    networkId:
      networkId.value === undefined || networkId.value === null
        ? null
        : readString(networkId.value, networkId.field),
    nonce: readString(nonce.value, nonce.field),
  };
}

/**
 * Reads the `cmd` text of a command.
 * @param field names `cmd` in errors (default `"cmd"`; `"cmds[2].cmd"` in a batch).
 * @throws {CommandError} CMD_BAD_JSON when the text is not JSON; CMD_MISSING_FIELD,
 *   CMD_BAD_FIELD or CMD_UNSUPPORTED_SCHEME naming the field inside it.
 */
export function parseCommandPayload(cmd: string, field = "cmd"): CommandPayload {
  const decoded = readJsonExact(cmd);
  if (!decoded.ok) {
    const reason = decoded.error;
    throw new CommandError(
      { code: CommandErrorCode.BadJson, field, reason },
      `${field}: not valid JSON: ${reason}`,
    );
  }
  return parsePayloadObject(decoded.value, field);
}
