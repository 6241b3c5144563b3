/**
 * The flags of `weft node`: each option's flags as the option table declares them
 * (nodeOptionTable.ts; `weft node --help` lists them), plus `--config FILE.yaml` and
 * `--help`/`-h`. Values follow the flag (`--port 1848`) or an equals sign
 * (`--port=1848`); a repeatable flag's values collect into a list; a switch sets its
 * option (`--mine`: true, `--no-mine-on-demand`: false). Values are checked later, by
 * resolveNodeOptions.
 * @module
 */
import { ConfigError, ConfigErrorCode } from "./errors.ts";
import { NODE_OPTION_ENTRIES, type NodeOptionsInput } from "./nodeOptions.ts";
import { type FlagSpec, type OptionEntry, setValueAt, valueAt } from "./optionSpec.ts";

export type NodeFlags = {
  readonly options: NodeOptionsInput;
  readonly configFile?: string | undefined;
  readonly help: boolean;
};

type FlagOf = { readonly flag: FlagSpec; readonly entry: OptionEntry };

/** Every option flag, by name. */
const OPTION_FLAGS = new Map<string, FlagOf>(
  NODE_OPTION_ENTRIES.flatMap((entry) =>
    (entry.spec.flags ?? []).map((flag): [string, FlagOf] => [flag.name, { flag, entry }]),
  ),
);

/** Flags of the command itself, not of an option. */
export const COMMAND_FLAGS = {
  config: {
    name: "--config",
    arg: "FILE.yaml",
    help: "options from a YAML file (keys as the flags; flags win)",
  },
  help: { name: "--help, -h", help: "this text" },
} as const;

/** Every flag taking a value (`weft node --help` lists each: test/unit/nodeCli.test.ts). */
export const VALUE_FLAGS: readonly string[] = [
  ...[...OPTION_FLAGS.values()].filter((f) => f.flag.arg !== undefined).map((f) => f.flag.name),
  "--config",
];
/** Every flag without a value. */
export const SWITCHES: readonly string[] = [
  ...[...OPTION_FLAGS.values()].filter((f) => f.flag.arg === undefined).map((f) => f.flag.name),
  "--help",
  "-h",
];

function badFlag(flag: string, reason: string): ConfigError {
  return new ConfigError({ code: ConfigErrorCode.BadFlag, flag, reason }, `${flag}: ${reason}`);
}

/**
 * @throws {ConfigError} CONFIG_BAD_FLAG for an unknown flag, a missing value, a repeated
 *   flag, or two switches of one option.
 */
export function parseNodeFlags(args: readonly string[]): NodeFlags {
  const options: Record<string, unknown> = {};
  /** The flag that set each option (a second one is an error unless repeatable). */
  const setBy = new Map<string, string>();
  let configFile: string | undefined;
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--help" || arg === "-h") {
      help = true;
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    const known = OPTION_FLAGS.get(name);
    if (name !== "--config" && (known === undefined || known.flag.arg === undefined)) {
      if (known === undefined || name !== arg) {
        throw badFlag(arg, "unknown flag (see weft node --help)");
      }
      const { flag, entry } = known;
      const before = setBy.get(entry.key);
      if (before === flag.name) continue;
      if (before !== undefined) throw badFlag(before, `given with ${flag.name}`);
      setBy.set(entry.key, flag.name);
      setValueAt(options, entry.path, flag.sets ?? true);
      continue;
    }
    let value: string | undefined;
    if (name !== arg) value = arg.slice(eq + 1);
    else {
      value = args[i + 1];
      i++;
    }
    if (value === undefined || (name === arg && value.startsWith("--"))) {
      throw badFlag(name, "expects a value");
    }
    if (known === undefined) {
      if (configFile !== undefined) throw badFlag(name, "given more than once");
      configFile = value;
      continue;
    }
    const { flag, entry } = known;
    if (flag.repeat === true) {
      const list = (valueAt(options, entry.path) as string[] | undefined) ?? [];
      setBy.set(entry.key, flag.name);
      setValueAt(options, entry.path, [...list, value]);
      continue;
    }
    if (setBy.has(entry.key)) throw badFlag(name, "given more than once");
    setBy.set(entry.key, flag.name);
    setValueAt(options, entry.path, value);
  }
  return { options, configFile, help };
}
