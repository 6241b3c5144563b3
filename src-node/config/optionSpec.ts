/**
 * How one node option is declared in the option table (nodeOptionTable.ts): its check,
 * default, flags, YAML key, help and doc text, desktop setting and whether a change needs
 * a restart. Everything else about options — the `NodeOptions` and `NodeOptionsInput`
 * types, `resolveNodeOptions`, the YAML reader, the flag parser, `weft node --help`, the
 * options section of docs/node.md and the desktop settings' list — is derived from the
 * table through the helpers here, so an option is written down once.
 * @module
 */

/** What a check sees besides the value: the key it names and the other options. */
export type CheckContext = {
  /** The option's key as errors name it: its YAML key (`mining.on-demand-confirmations`). */
  readonly key: string;
  /** Relative paths are resolved against it. */
  readonly baseDir: string;
  /** Another option's value as given, unchecked (`given("p2p.port")`). */
  given(path: string): unknown;
  /** An option the table declares before this one, checked (`resolved("network")`). */
  resolved(path: string): unknown;
};

/** A flag of `weft node` that sets an option. */
export type FlagSpec = {
  /** `--on-demand-confirmations`. */
  readonly name: `--${string}`;
  /** The value's placeholder in `--help` (`N`, `DIR`); absent for a switch. */
  readonly arg?: string | undefined;
  /** Value flags that may be given more than once collect their values into a list. */
  readonly repeat?: boolean | undefined;
  /** What a switch sets (default true). */
  readonly sets?: unknown;
  /** Its line in `weft node --help`. */
  readonly help: string;
};

/** The desktop setting (`settings.json`, electron/ipc/contract.ts) that sets an option. */
export type DesktopSpec = {
  /** The `AppSettings` field. */
  readonly setting: string;
};

export type OptionSpec<T> = {
  readonly kind: "option";
  /**
   * Checks a given value (never undefined): returns it as the node uses it.
   * @throws {ConfigError} CONFIG_BAD_VALUE naming `ctx.key` (or the option it needs).
   */
  readonly parse: (value: unknown, ctx: CheckContext) => T;
  /** The value when none is given. */
  readonly default: (ctx: CheckContext) => T;
  /** The default as `--help` and the docs show it (absent: none). */
  readonly shownDefault?: string | undefined;
  /** The YAML key when it is not the key in kebab case (`mining.api.enabled`). */
  readonly yaml?: string | undefined;
  /** Other spellings the YAML file accepts at the same place (`dataDir`). */
  readonly yamlAliases?: readonly string[] | undefined;
  /** A path: relative values in the YAML file are relative to the file's folder. */
  readonly path?: boolean | undefined;
  readonly flags?: readonly FlagSpec[] | undefined;
  /** What it means: its row in docs/node.md. */
  readonly doc: string;
  /** The unit of a number, shown with its default in the docs (`seconds`). */
  readonly unit?: string | undefined;
  readonly desktop?: DesktopSpec | undefined;
  /**
   * How the running node can change it without a restart (absent: a change needs a
   * restart, the node reads it when it starts).
   */
  readonly live?: string | undefined;
};

type Declared<T> = Omit<OptionSpec<T>, "kind" | "default" | "parse"> & {
  readonly parse: (value: unknown, ctx: CheckContext) => T;
};

/** An option with a default. */
export function option<T>(
  spec: Declared<T> & { readonly default: T | ((ctx: CheckContext) => T) },
): OptionSpec<T> {
  const d = spec.default;
  return {
    ...spec,
    kind: "option",
    default: typeof d === "function" ? (d as (ctx: CheckContext) => T) : () => d,
  };
}

/** An option without a default: undefined unless given. */
export function optional<T>(spec: Declared<T>): OptionSpec<T | undefined> {
  return { ...spec, kind: "option", default: () => undefined };
}

/** Options, and groups of options under a key (`mining`, `p2p`). */
export type OptionTable = { readonly [key: string]: OptionSpec<unknown> | OptionTable };

/** The checked options of a table. */
export type ResolvedOf<T> = {
  readonly [K in keyof T]: T[K] extends OptionSpec<infer V> ? V : ResolvedOf<T[K]>;
};

/** The options of a table as given: every key optional, values unchecked. */
export type InputOf<T> = {
  readonly [K in keyof T]?: T[K] extends OptionSpec<unknown> ? unknown : InputOf<T[K]> | undefined;
};

/** One option of a table with its names. */
export type OptionEntry = {
  /** The path in `NodeOptions` (`["mining", "onDemandConfirmations"]`). */
  readonly path: readonly string[];
  /** `mining.onDemandConfirmations`. */
  readonly key: string;
  /** The YAML key, which errors name too: `mining.on-demand-confirmations`. */
  readonly yaml: string;
  readonly spec: OptionSpec<unknown>;
};

function isOption(v: OptionSpec<unknown> | OptionTable): v is OptionSpec<unknown> {
  return (v as { kind?: unknown }).kind === "option";
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** Every option of a table, in the table's order. */
export function optionEntries(table: OptionTable, prefix: readonly string[] = []): OptionEntry[] {
  return Object.entries(table).flatMap(([name, v]) => {
    const path = [...prefix, name];
    if (!isOption(v)) return optionEntries(v, path);
    return [{ path, key: path.join("."), yaml: v.yaml ?? path.map(kebab).join("."), spec: v }];
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The value at `path` of nested objects, if any. */
export function valueAt(tree: unknown, path: readonly string[]): unknown {
  let v = tree;
  for (const p of path) {
    if (!isRecord(v)) return undefined;
    v = v[p];
  }
  return v;
}

/** Sets the value at `path`, making the objects on the way. */
export function setValueAt(tree: Record<string, unknown>, path: readonly string[], v: unknown) {
  let at = tree;
  for (const p of path.slice(0, -1)) {
    const next = at[p];
    if (isRecord(next)) at = next;
    else {
      const made: Record<string, unknown> = {};
      at[p] = made;
      at = made;
    }
  }
  at[path[path.length - 1] as string] = v;
}
