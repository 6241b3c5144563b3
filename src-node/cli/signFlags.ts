/**
 * Flag parsing shared by `add-sig` and `combine-sigs`: file arguments plus
 * `-l` (final command for /local instead of /send) and `-c` (print the
 * condensed form, without cmd). `--` ends the options, so a file whose name
 * starts with "-" can be given; `-` alone names standard input where the
 * command allows it.
 * @module
 */
import { usageError } from "./errors.ts";

export type SignFlags = { files: string[]; local: boolean; condensed: boolean };

/**
 * @param what the kind of file argument, for messages (`key file`, `file`).
 * @param stdinUse why `-` (standard input) cannot be a file argument here, or
 *   undefined when it can (once).
 */
export function parseSignFlags(
  args: readonly string[],
  what: string,
  stdinUse?: string,
): SignFlags {
  const files: string[] = [];
  let local = false;
  let condensed = false;
  let optionsEnded = false;
  for (const arg of args) {
    if (optionsEnded || arg === "-" || !arg.startsWith("-")) files.push(arg);
    else if (arg === "--") optionsEnded = true;
    else if (arg === "-l" || arg === "--local") local = true;
    else if (arg === "-c" || arg === "--condensed") condensed = true;
    else throw usageError(`unexpected option '${arg}' (put -- before a file named so)`);
  }
  if (files.length === 0) throw usageError(`give at least one ${what}`);
  const stdinCount = files.filter((f) => f === "-").length;
  if (stdinCount > 0 && stdinUse !== undefined) {
    throw usageError(`'-' cannot be a ${what}: ${stdinUse}`);
  }
  if (stdinCount > 1) throw usageError("give '-' (standard input) at most once");
  return { files, local, condensed };
}
