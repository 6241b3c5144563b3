/**
 * The node's options: what `createNode` runs with, from the command line
 * (parseNodeFlags.ts), a YAML file (loadConfigFile.ts) or a host such as the
 * desktop shell. Their types, checks and defaults are the option table's
 * (nodeOptionTable.ts; docs/node.md lists them): {@link resolveNodeOptions}
 * checks every value in the table's order, naming the YAML key of the first bad
 * one, and fills in the defaults.
 * @module
 */
import { NODE_OPTIONS } from "./nodeOptionTable.ts";
import {
  type CheckContext,
  type InputOf,
  optionEntries,
  type ResolvedOf,
  setValueAt,
  valueAt,
} from "./optionSpec.ts";

export type NodeOptionTable = typeof NODE_OPTIONS;

/** The checked options, defaults filled in. */
export type NodeOptions = ResolvedOf<NodeOptionTable>;

/** Options as given: every key optional, values unchecked. */
export type NodeOptionsInput = InputOf<NodeOptionTable>;

/** Every option of the table with its key, YAML key and spec. */
export const NODE_OPTION_ENTRIES = optionEntries(NODE_OPTIONS);

function pathOf(key: string): string[] {
  return key.split(".");
}

/**
 * Checks options and fills in defaults.
 * @param baseDir relative paths are resolved against it (default: the working directory).
 * @throws {ConfigError} CONFIG_BAD_VALUE naming the key.
 */
export function resolveNodeOptions(input: NodeOptionsInput, baseDir = process.cwd()): NodeOptions {
  const out: Record<string, unknown> = {};
  for (const { path, yaml, spec } of NODE_OPTION_ENTRIES) {
    const ctx: CheckContext = {
      key: yaml,
      baseDir,
      given: (key) => valueAt(input, pathOf(key)),
      resolved: (key) => valueAt(out, pathOf(key)),
    };
    const given = valueAt(input, path);
    setValueAt(out, path, given === undefined ? spec.default(ctx) : spec.parse(given, ctx));
  }
  return out as NodeOptions;
}

/** Options from a file overlaid with options from flags (flags win, key by key). */
export function mergeNodeOptions(
  file: NodeOptionsInput,
  flags: NodeOptionsInput,
): NodeOptionsInput {
  const out: Record<string, unknown> = {};
  for (const { path } of NODE_OPTION_ENTRIES) {
    const flag = valueAt(flags, path);
    setValueAt(out, path, flag !== undefined ? flag : valueAt(file, path));
  }
  return out;
}

/** An option the desktop app sets from one of its settings. */
export type DesktopSettingOption = {
  /** The `AppSettings` field (electron/ipc/contract.ts). */
  readonly setting: string;
  /** The option's path in `NodeOptions` (`["mining", "threads"]`). */
  readonly path: readonly string[];
  /** Its YAML key (`mining.threads`). */
  readonly yaml: string;
  /** How the running node changes it (absent: on a restart only). */
  readonly live: string | undefined;
};

/** The desktop settings' list: each option the table gives a desktop setting, in table order. */
export const DESKTOP_SETTING_OPTIONS: readonly DesktopSettingOption[] = NODE_OPTION_ENTRIES.flatMap(
  ({ path, yaml, spec }) =>
    spec.desktop === undefined
      ? []
      : [{ setting: spec.desktop.setting, path, yaml, live: spec.live }],
);
