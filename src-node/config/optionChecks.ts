/**
 * The checks the option table (nodeOptionTable.ts) gives its options: each takes a value
 * as a flag, the YAML file or code gives it and returns it as the node uses it, or throws
 * CONFIG_BAD_VALUE naming the key (`ctx.key`). Flags give every value as a string, so the
 * number and boolean checks take their spellings too.
 * @module
 */
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { runnableVersions } from "../chain/versions.ts";
import { badValue } from "./errors.ts";
import type { CheckContext } from "./optionSpec.ts";

/** The names `network` accepts. */
export const NETWORK_NAMES: readonly string[] = runnableVersions.map((v) => v.name);

/** Networks on which `mining.onDemand: auto` turns mine on demand on. */
export const ON_DEMAND_NETWORKS: readonly string[] = ["development", "test-singleton"];

/** A path with `~` expanded, made absolute against `baseDir`. */
export function resolvePath(path: string, baseDir: string): string {
  const expanded =
    path === "~" ? homedir() : path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
  return isAbsolute(expanded) ? expanded : resolve(baseDir, expanded);
}

export function text(value: unknown, ctx: Pick<CheckContext, "key">): string {
  if (typeof value !== "string" || value.trim() === "")
    throw badValue(ctx.key, "expected a non-empty string");
  return value;
}

export function bool(value: unknown, ctx: Pick<CheckContext, "key">): boolean {
  if (typeof value === "boolean") return value;
  if (value === "true") return true;
  if (value === "false") return false;
  throw badValue(ctx.key, `expected true or false, got ${JSON.stringify(value)}`);
}

/** An integer from `min` to `max`. */
export function integer(min: number, max: number) {
  return (value: unknown, ctx: Pick<CheckContext, "key">): number => {
    const n = typeof value === "string" && /^[0-9]+$/.test(value) ? Number(value) : value;
    if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > max) {
      throw badValue(
        ctx.key,
        `expected an integer from ${min} to ${max}, got ${JSON.stringify(value)}`,
      );
    }
    return n;
  };
}

/**
 * A duration in whole seconds from 1 to `max`; a number (code, the YAML file) may also be
 * a fraction down to a millisecond, 0.001 (tests wait milliseconds). Flags: whole seconds.
 */
export function seconds(max: number) {
  const whole = integer(1, max);
  return (value: unknown, ctx: Pick<CheckContext, "key">): number => {
    const fraction =
      typeof value === "number" && !Number.isInteger(value) && value >= 0.001 && value <= max;
    return fraction ? value : whole(value, ctx);
  };
}

/** A path, `~` expanded, made absolute against the context's folder. */
export function path(value: unknown, ctx: CheckContext): string {
  return resolvePath(text(value, ctx), ctx.baseDir);
}

export function network(value: unknown, ctx: CheckContext): string {
  const name = text(value, ctx);
  if (!NETWORK_NAMES.includes(name)) {
    throw badValue(
      ctx.key,
      `unknown network ${JSON.stringify(name)}; use one of ${NETWORK_NAMES.join(", ")}`,
    );
  }
  return name;
}

/** A list of strings, or one string of comma-separated items (a flag's value). */
export function textList(value: unknown, ctx: CheckContext): string[] {
  const items = typeof value === "string" ? value.split(",").map((k) => k.trim()) : value;
  if (
    !Array.isArray(items) ||
    items.length === 0 ||
    !items.every((k) => typeof k === "string" && k !== "")
  ) {
    throw badValue(ctx.key, "expected a non-empty list of strings");
  }
  return items;
}

export function host(value: unknown, ctx: CheckContext): string {
  const h = text(value, ctx);
  // A host name, IPv4 or IPv6 address: no scheme, path, port or spaces.
  if (!/^[a-zA-Z0-9.:_-]+$/.test(h) || h.startsWith("-")) {
    throw badValue(ctx.key, `expected a host name or IP address, got ${JSON.stringify(h)}`);
  }
  return h;
}

/** `allowed-hosts`: DNS names (or IPv4 addresses) without scheme, port or path, lower-cased. */
export function allowedHosts(value: unknown, ctx: CheckContext): string[] {
  const items =
    typeof value === "string" ? value.split(",").map((k) => k.trim()) : (value as unknown);
  if (!Array.isArray(items)) throw badValue(ctx.key, "expected a list of host names");
  return items.map((item) => {
    const name = typeof item === "string" ? item.toLowerCase() : "";
    if (
      !/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.?$/.test(name)
    ) {
      throw badValue(
        ctx.key,
        `expected a host name without scheme, port or path, got ${JSON.stringify(item)}`,
      );
    }
    return name;
  });
}

/** `p2p.peers`: `[FINGERPRINT@]HOST:PORT` items (a list, or one comma-separated string). */
export function peerList(value: unknown, ctx: CheckContext): string[] {
  const items = typeof value === "string" ? value.split(",").map((k) => k.trim()) : value;
  if (!Array.isArray(items)) throw badValue(ctx.key, "expected a list of HOST:PORT");
  return items.map((item, i) => {
    const m =
      typeof item === "string"
        ? /^(?:[A-Za-z0-9_-]{43}@)?(\[[0-9a-fA-F:.]+\]|[a-zA-Z0-9.-]+):([0-9]{1,5})$/.exec(item)
        : null;
    if (m === null || Number(m[2]) < 1 || Number(m[2]) > 65535) {
      throw badValue(
        `${ctx.key}[${i}]`,
        `expected HOST:PORT or FINGERPRINT@HOST:PORT (a host name or IP address and a port from 1 to 65535; a TLS peer's certificate fingerprint, 43 characters of base64url), got ${JSON.stringify(item)}`,
      );
    }
    return item as string;
  });
}

/** An entity name: letters, digits, `-`, `_` and `.`, at most 64 characters. */
export function entityName(value: unknown, ctx: Pick<CheckContext, "key">): string {
  const name = text(value, ctx);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
    throw badValue(
      ctx.key,
      `expected letters, digits, '.', '_' or '-' (at most 64, starting with a letter or digit), got ${JSON.stringify(name)}`,
    );
  }
  return name;
}

/**
 * `p2p.trusted-entities`: a map NAME → KEY (YAML) or a list of `NAME=KEY`
 * (`--trust-entity`, repeatable); each name an entity name, each key 43
 * characters of base64url (the entity's public key as its node shows it),
 * a name once.
 */
export function trustedEntities(
  value: unknown,
  ctx: CheckContext,
): { name: string; publicKey: string }[] {
  const key = ctx.key;
  let pairs: [string, unknown, string][];
  if (Array.isArray(value)) {
    pairs = value.map((item, i) => {
      const at = typeof item === "string" ? item.indexOf("=") : -1;
      if (typeof item !== "string" || at < 1) {
        throw badValue(`${key}[${i}]`, `expected NAME=KEY, got ${JSON.stringify(item)}`);
      }
      return [item.slice(0, at), item.slice(at + 1), `${key}[${i}]`];
    });
  } else if (typeof value === "object" && value !== null) {
    pairs = Object.entries(value).map(([n, k]) => [n, k, `${key}.${n}`]);
  } else {
    throw badValue(key, "expected a map of entity names to public keys (or NAME=KEY items)");
  }
  const seen = new Map<string, string>();
  for (const [name, publicKey, field] of pairs) {
    entityName(name, { key: field });
    if (typeof publicKey !== "string" || !/^[A-Za-z0-9_-]{43}$/.test(publicKey)) {
      throw badValue(
        field,
        `expected the entity's public key: 43 characters of base64url, as its node prints it at start, got ${JSON.stringify(publicKey)}`,
      );
    }
    const before = seen.get(name);
    if (before !== undefined && before !== publicKey) {
      throw badValue(field, `${name} is pinned twice, to two keys`);
    }
    seen.set(name, publicKey);
  }
  return [...seen].map(([name, publicKey]) => ({ name, publicKey }));
}
