/**
 * A command as a block's payload carries it: the UTF-8 bytes of
 * `{"hash","sigs","cmd"}` (reference chainweb-api.md §7.1), with signatures
 * written as `{"sig"}` only, so that the bytes (and the payload hash) do not
 * depend on the extra fields a client sent.
 * @module
 */
import type { ParsedCommand } from "../command/commandTypes.ts";
import { CommandError, CommandErrorCode } from "./errors.ts";
import { nodeCommands } from "./nodeCommands.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** The JSON text of a command in a block. */
export function blockTransactionText(command: ParsedCommand): string {
  const sigs = command.sigs.map((s) => `{"sig":${JSON.stringify(s)}}`).join(",");
  return `{"hash":${JSON.stringify(command.hash)},"sigs":[${sigs}],"cmd":${JSON.stringify(command.cmd)}}`;
}

export function blockTransactionBytes(command: ParsedCommand): Uint8Array {
  return encoder.encode(blockTransactionText(command));
}

/**
 * Reads a transaction of a block.
 * @param field names it in errors, e.g. `"transactions[3]"`.
 * @throws {CommandError} CMD_BAD_JSON when it is not UTF-8 JSON; the errors of parseCommand.
 */
export function parseBlockTransaction(bytes: Uint8Array, field: string): ParsedCommand {
  return parseBlockTransactionText(blockTransactionTextOf(bytes, field), field);
}

/**
 * The text of a transaction of a block.
 * @throws {CommandError} CMD_BAD_JSON when it is not UTF-8.
 */
export function blockTransactionTextOf(bytes: Uint8Array, field: string): string {
  try {
    return decoder.decode(bytes);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    throw new CommandError(
      { code: CommandErrorCode.BadJson, field, reason },
      `${field}: not UTF-8 JSON: ${reason}`,
    );
  }
}

/** {@link parseBlockTransaction} of decoded text. */
export function parseBlockTransactionText(text: string, field: string): ParsedCommand {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    throw new CommandError(
      { code: CommandErrorCode.BadJson, field, reason },
      `${field}: not UTF-8 JSON: ${reason}`,
    );
  }
  return nodeCommands.parseCommand(value, field);
}
