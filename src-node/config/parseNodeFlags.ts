/**
 * The flags of `weft node`: `--network NAME`, `--data-dir DIR`, `--host HOST`,
 * `--port N`, `--allowed-host NAME[,NAME…]` (more names `Host` may carry), `--app-remote`
 * (the app answers other computers that hold its token),
 * `--config FILE.yaml`, `--enable-backup-api`,
 * `--backup-directory DIR` (the spec's backup flags), `--enable-mining-api`
 * (the spec's mining API), `--mine`, `--miner-threads N`, `--miner-account
 * NAME`, `--miner-key HEX[,HEX…]` (the built-in miner), `--mine-on-demand`,
 * `--no-mine-on-demand`, `--on-demand-confirmations N` (mine on demand), `--listen-timeout
 * SECONDS` (how long `/listen` waits), `--spv-timeout SECONDS` (how long
 * `/spv` waits), `--spv-proof-depth N` (how deep a continuation's proof root
 * may be), `--archive` (keep the whole contract-state history), `--state-horizon N`
 * (blocks below each head whose state stays exact), `--peer HOST:PORT` (repeatable: a peer to connect to),
 * `--p2p-port N`, `--max-peers N`, `--entity NAME`, `--trust-entity NAME=KEY` (repeatable: an
 * entity pinned to its key, docs/private.md), `--p2p-tls`, `--p2p-allow-private-addresses`
 * (docs/p2p.md), `--help`. Values follow
 * the flag (`--port 1848`) or an equals sign (`--port=1848`). Values are
 * checked later, by resolveNodeOptions.
 * @module
 */
import { ConfigError, ConfigErrorCode } from "./errors.ts";
import type { NodeOptionsInput } from "./nodeOptions.ts";

export type NodeFlags = {
  readonly options: NodeOptionsInput;
  readonly configFile?: string | undefined;
  readonly help: boolean;
};

/** Every flag taking a value (`weft node --help` lists each: test/unit/nodeCli.test.ts). */
export const VALUE_FLAGS = [
  "--network",
  "--data-dir",
  "--host",
  "--port",
  "--allowed-host",
  "--config",
  "--backup-directory",
  "--miner-threads",
  "--miner-account",
  "--miner-key",
  "--on-demand-confirmations",
  "--listen-timeout",
  "--spv-timeout",
  "--spv-proof-depth",
  "--state-horizon",
  "--peer",
  "--p2p-port",
  "--max-peers",
  "--entity",
  "--trust-entity",
] as const;
/** Value flags that may be given more than once (their values collect into a list). */
const REPEATABLE = ["--peer", "--trust-entity"] as const;
/** Every flag without a value. */
export const SWITCHES = [
  "--app-remote",
  "--enable-backup-api",
  "--enable-mining-api",
  "--mine",
  "--p2p-tls",
  "--p2p-allow-private-addresses",
  "--mine-on-demand",
  "--no-mine-on-demand",
  "--archive",
  "--help",
  "-h",
] as const;

function badFlag(flag: string, reason: string): ConfigError {
  return new ConfigError({ code: ConfigErrorCode.BadFlag, flag, reason }, `${flag}: ${reason}`);
}

/**
 * @throws {ConfigError} CONFIG_BAD_FLAG for an unknown flag, a missing value or a repeated flag.
 */
export function parseNodeFlags(args: readonly string[]): NodeFlags {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  const lists = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    if ((VALUE_FLAGS as readonly string[]).includes(name)) {
      let value: string | undefined;
      if (name !== arg) value = arg.slice(eq + 1);
      else {
        value = args[i + 1];
        i++;
      }
      if (value === undefined || (name === arg && value.startsWith("--"))) {
        throw badFlag(name, "expects a value");
      }
      if ((REPEATABLE as readonly string[]).includes(name)) {
        lists.set(name, [...(lists.get(name) ?? []), value]);
        continue;
      }
      if (values.has(name)) throw badFlag(name, "given more than once");
      values.set(name, value);
    } else if ((SWITCHES as readonly string[]).includes(arg)) {
      switches.add(arg);
    } else {
      throw badFlag(arg, "unknown flag (see weft node --help)");
    }
  }
  const miningGiven =
    switches.has("--mine") ||
    switches.has("--enable-mining-api") ||
    values.has("--miner-threads") ||
    values.has("--miner-account") ||
    values.has("--miner-key") ||
    switches.has("--mine-on-demand") ||
    switches.has("--no-mine-on-demand") ||
    values.has("--on-demand-confirmations");
  if (switches.has("--mine-on-demand") && switches.has("--no-mine-on-demand")) {
    throw badFlag("--mine-on-demand", "given with --no-mine-on-demand");
  }
  return {
    options: {
      network: values.get("--network"),
      dataDir: values.get("--data-dir"),
      host: values.get("--host"),
      port: values.get("--port"),
      allowedHosts: values.get("--allowed-host"),
      appRemote: switches.has("--app-remote") ? true : undefined,
      mining: miningGiven
        ? {
            enabled: switches.has("--mine") ? true : undefined,
            threads: values.get("--miner-threads"),
            account: values.get("--miner-account"),
            publicKeys: values.get("--miner-key"),
            onDemand: switches.has("--mine-on-demand")
              ? true
              : switches.has("--no-mine-on-demand")
                ? false
                : undefined,
            onDemandConfirmations: values.get("--on-demand-confirmations"),
            apiEnabled: switches.has("--enable-mining-api") ? true : undefined,
          }
        : undefined,
      backup: {
        apiEnabled: switches.has("--enable-backup-api") ? true : undefined,
        directory: values.get("--backup-directory"),
      },
      commands: values.has("--listen-timeout")
        ? { listenTimeout: values.get("--listen-timeout") }
        : undefined,
      spv:
        values.has("--spv-timeout") || values.has("--spv-proof-depth")
          ? { timeout: values.get("--spv-timeout"), proofDepth: values.get("--spv-proof-depth") }
          : undefined,
      state:
        switches.has("--archive") || values.has("--state-horizon")
          ? {
              archive: switches.has("--archive") ? true : undefined,
              horizon: values.get("--state-horizon"),
            }
          : undefined,
      p2p:
        lists.has("--peer") ||
        values.has("--p2p-port") ||
        values.has("--max-peers") ||
        values.has("--entity") ||
        lists.has("--trust-entity") ||
        switches.has("--p2p-tls") ||
        switches.has("--p2p-allow-private-addresses")
          ? {
              peers: lists.get("--peer"),
              port: values.get("--p2p-port"),
              maxPeers: values.get("--max-peers"),
              entity: values.get("--entity"),
              trustedEntities: lists.get("--trust-entity"),
              tls: switches.has("--p2p-tls") ? true : undefined,
              allowPrivateAddresses: switches.has("--p2p-allow-private-addresses")
                ? true
                : undefined,
            }
          : undefined,
    },
    configFile: values.get("--config"),
    help: switches.has("--help") || switches.has("-h"),
  };
}
