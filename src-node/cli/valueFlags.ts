/**
 * The flag reading the small commands share (`weft mine`, `weft app-url`): `--name value` or
 * `--name=value` for each known flag, `--help`/`-h`; anything else, a missing value or a flag
 * given twice (unless it may repeat) is a usage error naming it. `weft node` reads its flags
 * from the option table instead (config/parseNodeFlags.ts).
 */
import { usageError } from "./errors.ts";

export type ValueFlags = {
  /** Each flag given, with its values in order (one unless it may repeat). */
  readonly values: ReadonlyMap<string, readonly string[]>;
  readonly help: boolean;
};

/**
 * @param command the command's name, for the error's pointer to its `--help`.
 * @param repeatable flags that may be given more than once.
 * @throws {CliError} CLI_USAGE for an unknown flag or argument, a missing value, a repeat.
 */
export function readValueFlags(
  args: readonly string[],
  known: ReadonlySet<string>,
  command: string,
  repeatable: ReadonlySet<string> = new Set(),
): ValueFlags {
  const values = new Map<string, string[]>();
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--help" || arg === "-h") {
      help = true;
      continue;
    }
    const eq = arg.indexOf("=");
    const inline = arg.startsWith("--") && eq > 0;
    const name = inline ? arg.slice(0, eq) : arg;
    if (!known.has(name)) {
      const what = arg.startsWith("-") ? "flag" : "argument";
      throw usageError(`${arg}: unknown ${what} (see weft ${command} --help)`);
    }
    const value = inline ? arg.slice(eq + 1) : args[++i];
    if (value === undefined || value === "" || (!inline && value.startsWith("--"))) {
      throw usageError(`${name}: expects a value`);
    }
    const before = values.get(name);
    if (before !== undefined && !repeatable.has(name))
      throw usageError(`${name}: given more than once`);
    values.set(name, [...(before ?? []), value]);
  }
  return { values, help };
}
