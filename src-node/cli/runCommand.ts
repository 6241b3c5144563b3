/**
 * Runs a CLI command and turns its outcome into an exit code: 0 on success;
 * 2 for usage errors; 1 for input errors (the message names the file and
 * field); 70 for anything unexpected (a bug). Errors go to stderr; commands
 * write stdout only once all checks have passed, so a failure leaves stdout
 * empty.
 * @module
 */
import { isNodeError } from "../errors/nodeError.ts";
import { CliError, CliErrorCode } from "./errors.ts";
import type { CliIo } from "./io.ts";

export const EXIT_OK = 0;
export const EXIT_INPUT = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERNAL = 70;

/**
 * @param usage printed after a usage error.
 */
export async function runCommand(
  io: CliIo,
  usage: string,
  body: () => void | Promise<void>,
): Promise<number> {
  try {
    await body();
    return EXIT_OK;
  } catch (e) {
    if (e instanceof CliError && e.code === CliErrorCode.Usage) {
      io.stderr.write(`weft: ${e.message}\n\n${usage}`);
      return EXIT_USAGE;
    }
    if (isNodeError(e)) {
      io.stderr.write(`weft: ${e.message}\n`);
      return EXIT_INPUT;
    }
    const text = e instanceof Error ? (e.stack ?? e.message) : String(e);
    io.stderr.write(`weft: internal error: ${text}\n`);
    return EXIT_INTERNAL;
  }
}
