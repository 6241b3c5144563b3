/**
 * Reads a command sent to /private: `{cmd, hash, sigs}` like any command,
 * but its `meta` is private metadata, `{"address": {"from": <node>, "to":
 * [<node>, …]}}` (the names of the sending node and of the nodes the
 * command is encrypted for; Weft's shape, docs/api.md), instead of public
 * metadata.
 * @module
 */

import { badField, readArray, readObject, readString, required } from "../command/fieldReaders.ts";
import { hashMismatch, isRequestKeyOf } from "../command/requestKeyCheck.ts";
import { isHashText } from "../encoding/base64url.ts";
import { CommandError, CommandErrorCode } from "./errors.ts";
import { nodeCommandCrypto } from "./nodeCommands.ts";

export type PrivateAddress = { readonly from: string; readonly to: readonly string[] };

export type PrivateCommand = {
  readonly cmd: string;
  readonly hash: string;
  readonly address: PrivateAddress;
};

/**
 * @throws {CommandError} CMD_MISSING_FIELD / CMD_BAD_FIELD / CMD_BAD_JSON naming
 *   the field; CMD_HASH_MISMATCH when `hash` is not a request key of `cmd`
 *   (parseCommand.ts).
 */
export function parsePrivateCommand(value: unknown): PrivateCommand {
  const o = readObject(value, "command");
  const cmdText = readString(required(o, "cmd", "").value, "cmd");
  const hash = readString(required(o, "hash", "").value, "hash");
  readArray(required(o, "sigs", "").value, "sigs");
  if (!isHashText(hash))
    throw badField("hash", "a request key: 43 characters of unpadded base64url");
  if (!isRequestKeyOf(nodeCommandCrypto, hash, cmdText)) {
    throw hashMismatch(nodeCommandCrypto, "hash", cmdText, hash);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(cmdText);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    throw new CommandError(
      { code: CommandErrorCode.BadJson, field: "cmd", reason },
      `cmd: not valid JSON: ${reason}`,
    );
  }
  const p = readObject(payload, "cmd");
  const meta = readObject(required(p, "meta", "cmd").value, "cmd.meta");
  if (!Object.hasOwn(meta, "address")) {
    throw badField("cmd.meta", 'private metadata {"address": {"from": …, "to": […]}}');
  }
  const address = readObject(meta.address, "cmd.meta.address");
  const from = readString(
    required(address, "from", "cmd.meta.address").value,
    "cmd.meta.address.from",
  );
  const to = readArray(
    required(address, "to", "cmd.meta.address").value,
    "cmd.meta.address.to",
  ).map((t, i) => readString(t, `cmd.meta.address.to[${i}]`));
  if (to.length === 0) throw badField("cmd.meta.address.to", "at least one addressed node");
  return { cmd: cmdText, hash, address: { from, to } };
}
