/**
 * The node's options: what `createNode` runs with, from the command line
 * (parseNodeFlags.ts), a YAML file (loadConfigFile.ts) or a host such as the
 * desktop shell. {@link resolveNodeOptions} checks every value, naming the
 * key of the first bad one, and fills in the defaults:
 *
 * | key | default |
 * | --- | --- |
 * | network | `development` |
 * | dataDir | defaultDataDir.ts |
 * | host | 127.0.0.1 |
 * | port | 1848 (0: any free port) |
 * | allowedHosts (`allowed-hosts`, `--allowed-host`) | none: more names the `Host` header may carry (api/hostCheck.ts) |
 * | appRemote (`app-remote`, `--app-remote`) | false: the app (its one-time codes, `/app/api/*`) answers only this computer (api/appToken.ts) |
 * | mining.enabled (built-in miner) | false; needs mining.account (+ publicKeys unless `k:`) |
 * | mining.threads | 1 |
 * | mining.predicate | keys-all |
 * | mining.onDemand (`on-demand`: true, false or auto) | auto: on for `development` and `test-singleton` without mining.account, when the host asks for auto (the app); false otherwise |
 * | mining.onDemandConfirmations (`on-demand-confirmations`) | 1 block on top of the one holding the commands |
 * | mining.apiEnabled (the spec's `mining.api.enabled`) | false |
 * | mining.updateStreamTimeout | 240 s (each stream ends after it, ±10 %) |
 * | mining.updateStreamLimit | 2000 concurrent update streams |
 * | backup.apiEnabled (the spec's `backup.api.enabled`) | false; needs backup.directory |
 * | backup.directory | none (no backups) |
 * | commands.listenTimeout (`/listen`'s wait, seconds) | 180 |
 * | spv.timeout (`/spv`'s wait for the target chain, seconds) | 180 (exec/spvService.ts) |
 * | spv.proofDepth (blocks a continuation's proof root may lie below the parent) | 20,000 (exec/spvVerifier.ts) |
 * | state.archive (`--archive`: keep the whole state history) | false: history below the horizon is compacted |
 * | state.horizon (`--state-horizon`: blocks below each head whose state stays exact) | spv.proofDepth (exec/stateCompactor.ts) |
 * @module
 */
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { runnableVersions } from "../chain/versions.ts";
import { defaultDataDir } from "./defaultDataDir.ts";
import { badValue } from "./errors.ts";
import { DEFAULT_HOST, DEFAULT_PORT } from "./nodeParams.ts";

export type MiningOptions = {
  /** Run the built-in miner once the node listens. */
  readonly enabled: boolean;
  /** Miner threads (default chosen by the miner). */
  readonly threads?: number | undefined;
  /** The account that receives mining rewards. */
  readonly account?: string | undefined;
  /** The reward account's public keys (hex); a `k:<key>` account needs none. */
  readonly publicKeys?: readonly string[] | undefined;
  /** The reward keyset's predicate (default keys-all). */
  readonly predicate?: string | undefined;
  /** Serve `{base_url}/mining/*` (spec: `mining.api.enabled`). */
  readonly apiEnabled: boolean;
  /** Mine on demand from the start (mining/mineOnDemand.ts). */
  readonly onDemand: boolean;
  /** Blocks mine on demand adds on top of the block holding the commands (default 1). */
  readonly onDemandConfirmations: number;
  /** Seconds after which the node ends a `/mining/updates` stream (default 240). */
  readonly updateStreamTimeout?: number | undefined;
  /** Most concurrent `/mining/updates` streams (default 2000). */
  readonly updateStreamLimit?: number | undefined;
};

export type BackupOptions = {
  /** Serve `{base_url}/make-backup` and `/check-backup/{id}` (spec: `backup.api.enabled`). */
  readonly apiEnabled: boolean;
  /** Where backups are written (spec: `backup.directory`); absolute. */
  readonly directory?: string | undefined;
};

export type CommandOptions = {
  /** Seconds `/listen` waits for a result before answering 504 (default 180, as the reference). */
  readonly listenTimeout: number;
};

export type SpvOptions = {
  /** Seconds `/spv` waits for the target chain to reach the needed height (default: the service's). */
  readonly timeout?: number | undefined;
  /** How many blocks below the parent a continuation's proof root may be (default: the verifier's). */
  readonly proofDepth?: number | undefined;
};

export type StateOptions = {
  /** Keep every version of the contract state (no compaction; docs/storage.md). */
  readonly archive: boolean;
  /** Blocks below each chain's head whose state stays exact (default: exec/stateCompactor.ts). */
  readonly horizon?: number | undefined;
};

export type P2pOptions = {
  /** Peers to connect to, `HOST:PORT` (spec: `p2p.peers`, flag `--peer`, repeatable). */
  readonly peers: readonly string[];
  /** Port of the peer interface when apart from the API's (default: the API's own port). */
  readonly port?: number | undefined;
  /** Most outgoing peer connections (default 16). */
  readonly maxPeers: number;
  /** This node's entity name for `/private` (`p2p.entity`, `--entity`). */
  readonly entity?: string | undefined;
  /**
   * Entities this node trusts for `/private`, each pinned to its public key
   * (`p2p.trusted-entities`, `--trust-entity NAME=KEY`; docs/private.md). Keys
   * are checked in full when the node starts (p2p/private/trustedEntities.ts).
   */
  readonly trustedEntities: readonly { readonly name: string; readonly publicKey: string }[];
  /**
   * TLS on the peer port (`p2p.tls`, `--p2p-tls`): a self-signed certificate whose fingerprint
   * names the node to peers (`FINGERPRINT@HOST:PORT`; docs/p2p.md "TLS"). Needs `p2p.port`.
   */
  readonly tls: boolean;
  /**
   * Loopback, link-local and private addresses learnt from peers are taken
   * (`p2p.allow-private-addresses`, `--p2p-allow-private-addresses`; default: only when this node
   * publishes an address of the same kind; docs/p2p.md).
   */
  readonly allowPrivateAddresses: boolean;
};

/** Default `p2p.max-peers`. */
export const DEFAULT_MAX_PEERS = 16;

/** `/listen`'s default wait, seconds. */
export const DEFAULT_LISTEN_TIMEOUT_S = 180;

export type NodeOptions = {
  /** A runnable network version name (`development`, `testnet04`, `mainnet01`, `test-singleton`, …). */
  readonly network: string;
  /** Absolute; each network keeps its databases in `dataDir/<network>/`. */
  readonly dataDir: string;
  readonly host: string;
  readonly port: number;
  /**
   * Names, lower case, that requests may carry in `Host` besides the loopback
   * names, IP literals and `host` (a name peers reach the node by); any port.
   */
  readonly allowedHosts: readonly string[];
  /**
   * The app's page and API answer clients on other computers that hold the app token
   * (docs/node.md "The app token": a risk on any network you do not control).
   */
  readonly appRemote: boolean;
  readonly mining: MiningOptions;
  readonly backup: BackupOptions;
  readonly commands: CommandOptions;
  readonly spv: SpvOptions;
  readonly state: StateOptions;
  readonly p2p: P2pOptions;
};

/** Options as given: every key optional, values unchecked. */
export type NodeOptionsInput = {
  readonly network?: unknown;
  readonly dataDir?: unknown;
  readonly host?: unknown;
  readonly port?: unknown;
  readonly allowedHosts?: unknown;
  readonly appRemote?: unknown;
  readonly mining?:
    | {
        readonly enabled?: unknown;
        readonly threads?: unknown;
        readonly account?: unknown;
        readonly publicKeys?: unknown;
        readonly predicate?: unknown;
        /** true, false, or `auto` (on for development networks without an account). */
        readonly onDemand?: unknown;
        readonly onDemandConfirmations?: unknown;
        readonly apiEnabled?: unknown;
        readonly updateStreamTimeout?: unknown;
        readonly updateStreamLimit?: unknown;
      }
    | undefined;
  readonly backup?:
    | {
        readonly apiEnabled?: unknown;
        readonly directory?: unknown;
      }
    | undefined;
  readonly commands?: { readonly listenTimeout?: unknown } | undefined;
  readonly spv?: { readonly timeout?: unknown; readonly proofDepth?: unknown } | undefined;
  readonly state?: { readonly archive?: unknown; readonly horizon?: unknown } | undefined;
  readonly p2p?:
    | {
        readonly peers?: unknown;
        readonly port?: unknown;
        readonly maxPeers?: unknown;
        readonly entity?: unknown;
        /** A map NAME → KEY (the YAML file) or a list of `NAME=KEY` (`--trust-entity`). */
        readonly trustedEntities?: unknown;
        readonly tls?: unknown;
        readonly allowPrivateAddresses?: unknown;
      }
    | undefined;
};

/** The names `network` accepts. */
export const NETWORK_NAMES: readonly string[] = runnableVersions.map((v) => v.name);

/** A path with `~` expanded, made absolute against `baseDir`. */
export function resolvePath(path: string, baseDir: string): string {
  const expanded =
    path === "~" ? homedir() : path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
  return isAbsolute(expanded) ? expanded : resolve(baseDir, expanded);
}

function text(value: unknown, key: string): string {
  if (typeof value !== "string" || value.trim() === "")
    throw badValue(key, "expected a non-empty string");
  return value;
}

function bool(value: unknown, key: string): boolean {
  if (typeof value === "boolean") return value;
  if (value === "true") return true;
  if (value === "false") return false;
  throw badValue(key, `expected true or false, got ${JSON.stringify(value)}`);
}

function integer(value: unknown, key: string, min: number, max: number): number {
  const n = typeof value === "string" && /^[0-9]+$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > max) {
    throw badValue(key, `expected an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** A list of strings, or one string of comma-separated items (a flag's value). */
function textList(value: unknown, key: string): string[] {
  const items = typeof value === "string" ? value.split(",").map((k) => k.trim()) : value;
  if (
    !Array.isArray(items) ||
    items.length === 0 ||
    !items.every((k) => typeof k === "string" && k !== "")
  ) {
    throw badValue(key, "expected a non-empty list of strings");
  }
  return items;
}

function host(value: unknown): string {
  const h = text(value, "host");
  // A host name, IPv4 or IPv6 address: no scheme, path, port or spaces.
  if (!/^[a-zA-Z0-9.:_-]+$/.test(h) || h.startsWith("-")) {
    throw badValue("host", `expected a host name or IP address, got ${JSON.stringify(h)}`);
  }
  return h;
}

/** `allowed-hosts`: DNS names (or IPv4 addresses) without scheme, port or path, lower-cased. */
function allowedHosts(value: unknown): string[] {
  const items =
    typeof value === "string" ? value.split(",").map((k) => k.trim()) : (value as unknown);
  if (!Array.isArray(items)) throw badValue("allowed-hosts", "expected a list of host names");
  return items.map((item) => {
    const name = typeof item === "string" ? item.toLowerCase() : "";
    if (
      !/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.?$/.test(name)
    ) {
      throw badValue(
        "allowed-hosts",
        `expected a host name without scheme, port or path, got ${JSON.stringify(item)}`,
      );
    }
    return name;
  });
}

/** `p2p.peers`: `[FINGERPRINT@]HOST:PORT` items (a list, or one comma-separated string). */
function peerList(value: unknown): string[] {
  const items = typeof value === "string" ? value.split(",").map((k) => k.trim()) : value;
  if (!Array.isArray(items)) throw badValue("p2p.peers", "expected a list of HOST:PORT");
  return items.map((item, i) => {
    const m =
      typeof item === "string"
        ? /^(?:[A-Za-z0-9_-]{43}@)?(\[[0-9a-fA-F:.]+\]|[a-zA-Z0-9.-]+):([0-9]{1,5})$/.exec(item)
        : null;
    if (m === null || Number(m[2]) < 1 || Number(m[2]) > 65535) {
      throw badValue(
        `p2p.peers[${i}]`,
        `expected HOST:PORT or FINGERPRINT@HOST:PORT (a host name or IP address and a port from 1 to 65535; a TLS peer's certificate fingerprint, 43 characters of base64url), got ${JSON.stringify(item)}`,
      );
    }
    return item as string;
  });
}

/** `p2p.tls`: a boolean; TLS needs the peer port apart from the API's (which stays plain HTTP). */
function p2pTls(value: unknown, port: unknown): boolean {
  const on = value === undefined ? false : bool(value, "p2p.tls");
  if (on && port === undefined) {
    throw badValue(
      "p2p.tls",
      "needs p2p.port (--p2p-port): peers reach the node over TLS there, the API's port stays plain HTTP",
    );
  }
  return on;
}

/** `p2p.entity`: a name of letters, digits, `-`, `_` and `.`, at most 64 characters. */
function entityName(value: unknown, key = "p2p.entity"): string {
  const name = text(value, key);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
    throw badValue(
      key,
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
function trustedEntities(value: unknown): { name: string; publicKey: string }[] {
  const key = "p2p.trusted-entities";
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
    entityName(name, field);
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

/** Networks on which `mining.onDemand: auto` turns mine on demand on. */
export const ON_DEMAND_NETWORKS: readonly string[] = ["development", "test-singleton"];
/** Blocks mine on demand adds on top of the block holding the commands. */
export const DEFAULT_ON_DEMAND_CONFIRMATIONS = 1;

/** `mining.on-demand`: true, false, or `auto` (on for a development network without a reward account). */
function onDemand(value: unknown, network: string, hasAccount: boolean): boolean {
  if (value === undefined) return false;
  if (value === "auto") return ON_DEMAND_NETWORKS.includes(network) && !hasAccount;
  if (typeof value === "boolean" || value === "true" || value === "false") {
    const on = bool(value, "mining.on-demand");
    if (on && !ON_DEMAND_NETWORKS.includes(network)) {
      throw badValue(
        "mining.on-demand",
        `only on ${ON_DEMAND_NETWORKS.join(" and ")}, not on ${network}`,
      );
    }
    return on;
  }
  throw badValue("mining.on-demand", `expected true, false or auto, got ${JSON.stringify(value)}`);
}

/**
 * Checks options and fills in defaults.
 * @param baseDir relative paths are resolved against it (default: the working directory).
 * @throws {ConfigError} CONFIG_BAD_VALUE naming the key.
 */
export function resolveNodeOptions(input: NodeOptionsInput, baseDir = process.cwd()): NodeOptions {
  const network = input.network === undefined ? "development" : text(input.network, "network");
  if (!NETWORK_NAMES.includes(network)) {
    throw badValue(
      "network",
      `unknown network ${JSON.stringify(network)}; use one of ${NETWORK_NAMES.join(", ")}`,
    );
  }
  const mining = input.mining ?? {};
  const backup = input.backup ?? {};
  const commands = input.commands ?? {};
  const spv = input.spv ?? {};
  const state = input.state ?? {};
  const p2p = input.p2p ?? {};
  const backupApi =
    backup.apiEnabled === undefined ? false : bool(backup.apiEnabled, "backup.api.enabled");
  if (backupApi && backup.directory === undefined) {
    throw badValue("backup.directory", "needed with backup.api.enabled (--enable-backup-api)");
  }
  return {
    network,
    dataDir:
      input.dataDir === undefined
        ? defaultDataDir()
        : resolvePath(text(input.dataDir, "dataDir"), baseDir),
    host: input.host === undefined ? DEFAULT_HOST : host(input.host),
    port: input.port === undefined ? DEFAULT_PORT : integer(input.port, "port", 0, 65535),
    allowedHosts: input.allowedHosts === undefined ? [] : allowedHosts(input.allowedHosts),
    appRemote: input.appRemote === undefined ? false : bool(input.appRemote, "app-remote"),
    mining: {
      enabled: mining.enabled === undefined ? false : bool(mining.enabled, "mining.enabled"),
      threads:
        mining.threads === undefined
          ? undefined
          : integer(mining.threads, "mining.threads", 1, 1024),
      account: mining.account === undefined ? undefined : text(mining.account, "mining.account"),
      publicKeys:
        mining.publicKeys === undefined
          ? undefined
          : textList(mining.publicKeys, "mining.publicKeys"),
      predicate:
        mining.predicate === undefined ? undefined : text(mining.predicate, "mining.predicate"),
      apiEnabled:
        mining.apiEnabled === undefined ? false : bool(mining.apiEnabled, "mining.api.enabled"),
      onDemand: onDemand(mining.onDemand, network, mining.account !== undefined),
      onDemandConfirmations:
        mining.onDemandConfirmations === undefined
          ? DEFAULT_ON_DEMAND_CONFIRMATIONS
          : integer(mining.onDemandConfirmations, "mining.on-demand-confirmations", 0, 100),
      updateStreamTimeout:
        mining.updateStreamTimeout === undefined
          ? undefined
          : integer(mining.updateStreamTimeout, "mining.api.updateStreamTimeout", 1, 86_400),
      updateStreamLimit:
        mining.updateStreamLimit === undefined
          ? undefined
          : integer(mining.updateStreamLimit, "mining.api.updateStreamLimit", 1, 100_000),
    },
    backup: {
      apiEnabled: backupApi,
      directory:
        backup.directory === undefined
          ? undefined
          : resolvePath(text(backup.directory, "backup.directory"), baseDir),
    },
    commands: {
      listenTimeout:
        commands.listenTimeout === undefined
          ? DEFAULT_LISTEN_TIMEOUT_S
          : integer(commands.listenTimeout, "commands.listen-timeout", 1, 86_400),
    },
    spv: {
      timeout:
        spv.timeout === undefined ? undefined : integer(spv.timeout, "spv.timeout", 1, 86_400),
      proofDepth:
        spv.proofDepth === undefined
          ? undefined
          : integer(spv.proofDepth, "spv.proof-depth", 1, 1_000_000_000),
    },
    state: {
      archive: state.archive === undefined ? false : bool(state.archive, "state.archive"),
      horizon:
        state.horizon === undefined
          ? undefined
          : integer(state.horizon, "state.horizon", 1, 1_000_000_000),
    },
    p2p: {
      peers: p2p.peers === undefined ? [] : peerList(p2p.peers),
      port: p2p.port === undefined ? undefined : integer(p2p.port, "p2p.port", 0, 65535),
      maxPeers:
        p2p.maxPeers === undefined
          ? DEFAULT_MAX_PEERS
          : integer(p2p.maxPeers, "p2p.max-peers", 1, 1024),
      entity: p2p.entity === undefined ? undefined : entityName(p2p.entity),
      trustedEntities:
        p2p.trustedEntities === undefined ? [] : trustedEntities(p2p.trustedEntities),
      tls: p2pTls(p2p.tls, p2p.port),
      allowPrivateAddresses:
        p2p.allowPrivateAddresses === undefined
          ? false
          : bool(p2p.allowPrivateAddresses, "p2p.allow-private-addresses"),
    },
  };
}

/** Options from a file overlaid with options from flags (flags win, key by key). */
export function mergeNodeOptions(
  file: NodeOptionsInput,
  flags: NodeOptionsInput,
): NodeOptionsInput {
  const pick = <T>(a: T | undefined, b: T | undefined) => (b !== undefined ? b : a);
  return {
    network: pick(file.network, flags.network),
    dataDir: pick(file.dataDir, flags.dataDir),
    host: pick(file.host, flags.host),
    port: pick(file.port, flags.port),
    allowedHosts: pick(file.allowedHosts, flags.allowedHosts),
    appRemote: pick(file.appRemote, flags.appRemote),
    mining: {
      enabled: pick(file.mining?.enabled, flags.mining?.enabled),
      threads: pick(file.mining?.threads, flags.mining?.threads),
      account: pick(file.mining?.account, flags.mining?.account),
      publicKeys: pick(file.mining?.publicKeys, flags.mining?.publicKeys),
      predicate: pick(file.mining?.predicate, flags.mining?.predicate),
      onDemand: pick(file.mining?.onDemand, flags.mining?.onDemand),
      onDemandConfirmations: pick(
        file.mining?.onDemandConfirmations,
        flags.mining?.onDemandConfirmations,
      ),
      apiEnabled: pick(file.mining?.apiEnabled, flags.mining?.apiEnabled),
      updateStreamTimeout: pick(
        file.mining?.updateStreamTimeout,
        flags.mining?.updateStreamTimeout,
      ),
      updateStreamLimit: pick(file.mining?.updateStreamLimit, flags.mining?.updateStreamLimit),
    },
    backup: {
      apiEnabled: pick(file.backup?.apiEnabled, flags.backup?.apiEnabled),
      directory: pick(file.backup?.directory, flags.backup?.directory),
    },
    commands: {
      listenTimeout: pick(file.commands?.listenTimeout, flags.commands?.listenTimeout),
    },
    spv: {
      timeout: pick(file.spv?.timeout, flags.spv?.timeout),
      proofDepth: pick(file.spv?.proofDepth, flags.spv?.proofDepth),
    },
    state: {
      archive: pick(file.state?.archive, flags.state?.archive),
      horizon: pick(file.state?.horizon, flags.state?.horizon),
    },
    p2p: {
      peers: pick(file.p2p?.peers, flags.p2p?.peers),
      port: pick(file.p2p?.port, flags.p2p?.port),
      maxPeers: pick(file.p2p?.maxPeers, flags.p2p?.maxPeers),
      entity: pick(file.p2p?.entity, flags.p2p?.entity),
      trustedEntities: pick(file.p2p?.trustedEntities, flags.p2p?.trustedEntities),
      tls: pick(file.p2p?.tls, flags.p2p?.tls),
      allowPrivateAddresses: pick(
        file.p2p?.allowPrivateAddresses,
        flags.p2p?.allowPrivateAddresses,
      ),
    },
  };
}
