/**
 * The YAML configuration file of `weft node --config FILE.yaml`. Its keys are the
 * options' YAML keys of the option table (nodeOptionTable.ts; docs/node.md lists them
 * and shows an example): `mining.on-demand-confirmations` is `on-demand-confirmations`
 * under `mining`. Unknown keys are errors (they are usually misspellings) naming the keys
 * known there; paths are resolved against the file's folder.
 * @module
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parse } from "yaml";
import { ConfigError, ConfigErrorCode } from "./errors.ts";
import { NODE_OPTION_ENTRIES, type NodeOptionsInput } from "./nodeOptions.ts";
import { resolvePath } from "./optionChecks.ts";
import { type OptionEntry, setValueAt } from "./optionSpec.ts";

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A place in the file: the option found there, or the places below a section. */
type Place = { readonly entry: OptionEntry } | { readonly below: Map<string, Place> };

/** The file's keys, as a tree of sections (`mining` → `api` → `enabled`). */
const TOP: Map<string, Place> = (() => {
  const top = new Map<string, Place>();
  for (const entry of NODE_OPTION_ENTRIES) {
    const parts = entry.yaml.split(".");
    let at = top;
    for (const part of parts.slice(0, -1)) {
      let next = at.get(part);
      if (next === undefined) {
        next = { below: new Map() };
        at.set(part, next);
      }
      if (!("below" in next)) throw new Error(`${entry.yaml}: a key is also a section`);
      at = next.below;
    }
    for (const name of [parts[parts.length - 1] as string, ...(entry.spec.yamlAliases ?? [])]) {
      at.set(name, { entry });
    }
  }
  return top;
})();

function badFile(file: string, key: string, reason: string): ConfigError {
  return new ConfigError(
    { code: ConfigErrorCode.BadValue, key, reason },
    `${file}: ${key}: ${reason}`,
  );
}

/** Reads one section's keys into `out`; `key` names the section ("" at the top). */
function readSection(
  file: string,
  value: Record<string, unknown>,
  key: string,
  places: Map<string, Place>,
  baseDir: string,
  out: Record<string, unknown>,
): void {
  const seen = new Map<string, string>();
  for (const [name, v] of Object.entries(value)) {
    const full = key === "" ? name : `${key}.${name}`;
    const place = places.get(name);
    if (place === undefined) {
      throw new ConfigError(
        { code: ConfigErrorCode.UnknownKey, key: full, file },
        `${file}: unknown key ${full} (known: ${[...places.keys()].join(", ")})`,
      );
    }
    if ("below" in place) {
      if (v === undefined || v === null) continue;
      if (!isRecord(v)) throw badFile(file, full, "expected a mapping");
      readSection(file, v, full, place.below, baseDir, out);
      continue;
    }
    const { entry } = place;
    const other = seen.get(entry.key);
    if (other !== undefined) {
      throw badFile(file, other, `given twice (${other} and ${name})`);
    }
    seen.set(entry.key, name);
    const given = entry.spec.path === true && typeof v === "string" && v.trim() !== "";
    setValueAt(out, entry.path, given ? resolvePath(v, baseDir) : v);
  }
}

/** Parses the text of a configuration file; `file` names it in errors and anchors relative paths. */
export function parseConfigText(text: string, file: string): NodeOptionsInput {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new ConfigError(
      { code: ConfigErrorCode.BadFile, file, reason: e instanceof Error ? e.message : String(e) },
      `${file}: not valid YAML: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    );
  }
  if (doc === undefined || doc === null) return {};
  if (!isRecord(doc)) throw badFile(file, "", "expected a mapping");
  const out: Record<string, unknown> = {};
  readSection(file, doc, "", TOP, dirname(resolve(file)), out);
  return out;
}

/**
 * Reads and parses a configuration file.
 * @throws {ConfigError} CONFIG_BAD_FILE (unreadable, not YAML), CONFIG_UNKNOWN_KEY, CONFIG_BAD_VALUE.
 */
export function loadConfigFile(file: string): NodeOptionsInput {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new ConfigError(
      { code: ConfigErrorCode.BadFile, file, reason: e instanceof Error ? e.message : String(e) },
      `${file}: cannot read the configuration file: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    );
  }
  return parseConfigText(text, file);
}
