/**
 * Flag parsing shared by `add-sig` and `combine-sigs`: file arguments plus
 * `-l` (final command for /local instead of /send) and `-c` (print the
 * condensed form, without cmd).
 * @module
 */
import { usageError } from "./errors.ts";

export type SignFlags = { files: string[]; local: boolean; condensed: boolean };

export function parseSignFlags(args: readonly string[], what: string): SignFlags {
  const files: string[] = [];
  let local = false;
  let condensed = false;
  for (const arg of args) {
    if (arg === "-l" || arg === "--local") local = true;
    else if (arg === "-c" || arg === "--condensed") condensed = true;
    else if (arg.startsWith("-") && arg !== "-") throw usageError(`unexpected option '${arg}'`);
    else files.push(arg);
  }
  if (files.length === 0) throw usageError(`give at least one ${what}`);
  return { files, local, condensed };
}
