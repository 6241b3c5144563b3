/**
 * The YAML configuration file of `weft node --config FILE.yaml`. Its keys
 * mirror the flags (docs/node.md):
 *
 * ```yaml
 * network: development
 * data-dir: ~/weft-data        # also dataDir; relative to this file
 * host: 127.0.0.1
 * port: 1848
 * allowed-hosts: [weft.example.org]   # more names Host may carry (peers reach the node by)
 * app-remote: false            # true: the app answers other computers holding its token
 * mining:
 *   enabled: false             # the built-in miner
 *   threads: 2
 *   account: k:…               # public-keys: [hex…] and predicate for other accounts
 *   api:                       # the spec's mining.api.enabled
 *     enabled: true
 *     update-stream-timeout: 240   # seconds
 *     update-stream-limit: 2000
 * backup:
 *   api: { enabled: true }     # the spec's backup.api.enabled
 *   directory: ./backups       # the spec's backup.directory
 * commands:
 *   listen-timeout: 180        # seconds /listen waits for a result
 * spv:
 *   timeout: 180               # seconds /spv waits for the target chain
 *   proof-depth: 20000         # blocks a continuation's proof root may lie below the parent
 * state:
 *   archive: false             # true: keep the whole contract-state history
 *   horizon: 20000             # blocks below each head whose state stays exact (default spv.proof-depth)
 * ```
 * Unknown keys are errors (they are usually misspellings); paths are
 * resolved against the file's folder.
 * @module
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parse } from "yaml";
import { ConfigError, ConfigErrorCode } from "./errors.ts";
import { type NodeOptionsInput, resolvePath } from "./nodeOptions.ts";

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function section(
  file: string,
  value: unknown,
  key: string,
  allowed: readonly string[],
): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) {
    throw new ConfigError(
      { code: ConfigErrorCode.BadValue, key, reason: "expected a mapping" },
      `${file}: ${key}: expected a mapping`,
    );
  }
  for (const k of Object.keys(value)) {
    if (!allowed.includes(k)) {
      const full = key === "" ? k : `${key}.${k}`;
      throw new ConfigError(
        { code: ConfigErrorCode.UnknownKey, key: full, file },
        `${file}: unknown key ${full} (known: ${allowed.join(", ")})`,
      );
    }
  }
  return value;
}

function pathIn(value: unknown, baseDir: string): unknown {
  return typeof value === "string" && value.trim() !== "" ? resolvePath(value, baseDir) : value;
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
  const top = section(file, doc, "", [
    "network",
    "data-dir",
    "dataDir",
    "host",
    "port",
    "allowed-hosts",
    "app-remote",
    "mining",
    "backup",
    "commands",
    "spv",
    "state",
    "p2p",
  ]);
  if (top === undefined) return {};
  if ("data-dir" in top && "dataDir" in top) {
    throw new ConfigError(
      {
        code: ConfigErrorCode.BadValue,
        key: "data-dir",
        reason: "given twice (data-dir and dataDir)",
      },
      `${file}: data-dir: given twice (data-dir and dataDir)`,
    );
  }
  const baseDir = dirname(resolve(file));
  const mining = section(file, top.mining, "mining", [
    "enabled",
    "threads",
    "account",
    "public-keys",
    "predicate",
    "api",
    "on-demand",
    "on-demand-confirmations",
  ]);
  const miningApi = section(file, mining?.api, "mining.api", [
    "enabled",
    "update-stream-timeout",
    "update-stream-limit",
  ]);
  const backup = section(file, top.backup, "backup", ["api", "directory"]);
  const backupApi = section(file, backup?.api, "backup.api", ["enabled"]);
  const commands = section(file, top.commands, "commands", ["listen-timeout"]);
  const spv = section(file, top.spv, "spv", ["timeout", "proof-depth"]);
  const state = section(file, top.state, "state", ["archive", "horizon"]);
  const p2p = section(file, top.p2p, "p2p", [
    "peers",
    "port",
    "max-peers",
    "entity",
    "trusted-entities",
    "tls",
    "allow-private-addresses",
  ]);
  return {
    network: top.network,
    dataDir: pathIn(top["data-dir"] ?? top.dataDir, baseDir),
    host: top.host,
    port: top.port,
    allowedHosts: top["allowed-hosts"],
    appRemote: top["app-remote"],
    mining:
      mining === undefined
        ? undefined
        : {
            enabled: mining.enabled,
            threads: mining.threads,
            account: mining.account,
            publicKeys: mining["public-keys"],
            predicate: mining.predicate,
            onDemand: mining["on-demand"],
            onDemandConfirmations: mining["on-demand-confirmations"],
            apiEnabled: miningApi?.enabled,
            updateStreamTimeout: miningApi?.["update-stream-timeout"],
            updateStreamLimit: miningApi?.["update-stream-limit"],
          },
    backup:
      backup === undefined
        ? undefined
        : { apiEnabled: backupApi?.enabled, directory: pathIn(backup.directory, baseDir) },
    commands: commands === undefined ? undefined : { listenTimeout: commands["listen-timeout"] },
    spv: spv === undefined ? undefined : { timeout: spv.timeout, proofDepth: spv["proof-depth"] },
    state: state === undefined ? undefined : { archive: state.archive, horizon: state.horizon },
    p2p:
      p2p === undefined
        ? undefined
        : {
            peers: p2p.peers,
            port: p2p.port,
            maxPeers: p2p["max-peers"],
            entity: p2p.entity,
            trustedEntities: p2p["trusted-entities"],
            tls: p2p.tls,
            allowPrivateAddresses: p2p["allow-private-addresses"],
          },
  };
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
