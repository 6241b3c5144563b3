/**
 * Every option of the node, declared once: key, check, default, flags, YAML key, help
 * and doc text, desktop setting, and how it changes while the node runs (absent: on a
 * restart). The types (`NodeOptions`, `NodeOptionsInput`), `resolveNodeOptions`, the YAML
 * reader, the flag parser, `weft node --help`, the options section of docs/node.md
 * (`npm run docs:options`) and the desktop settings' list all derive from this table
 * (optionSpec.ts), so adding an option is a row here and the code that uses it.
 *
 * Errors name an option by its YAML key (`p2p.max-peers`), which is its key in kebab case
 * unless `yaml` says otherwise. Options are checked in the table's order: a check may read
 * an option declared before it (`mining.on-demand` reads `network`).
 * @module
 */
import { defaultDataDir } from "./defaultDataDir.ts";
import { badValue } from "./errors.ts";
import {
  allowedHosts,
  bool,
  entityName,
  host,
  integer,
  NETWORK_NAMES,
  network,
  ON_DEMAND_NETWORKS,
  path,
  peerList,
  seconds,
  text,
  textList,
  trustedEntities,
} from "./optionChecks.ts";
import { type CheckContext, option, optional } from "./optionSpec.ts";

/** Seconds a timeout may be at most: a day. */
const DAY_S = 86_400;

/** `mining.on-demand`: true, false, or `auto` (on for a development network without a reward account). */
function onDemand(value: unknown, ctx: CheckContext): boolean {
  const net = ctx.resolved("network") as string;
  if (value === "auto")
    return ON_DEMAND_NETWORKS.includes(net) && ctx.given("mining.account") === undefined;
  if (typeof value === "boolean" || value === "true" || value === "false") {
    const on = bool(value, ctx);
    if (on && !ON_DEMAND_NETWORKS.includes(net)) {
      throw badValue(ctx.key, `only on ${ON_DEMAND_NETWORKS.join(" and ")}, not on ${net}`);
    }
    return on;
  }
  throw badValue(ctx.key, `expected true, false or auto, got ${JSON.stringify(value)}`);
}

export const NODE_OPTIONS = {
  network: option({
    parse: network,
    default: "development",
    flags: [{ name: "--network", arg: "NAME", help: NETWORK_NAMES.join(", ") }],
    doc: `${NETWORK_NAMES.map((n) => `\`${n}\``).join(", ")} (\`docs/networks.md\`)`,
    desktop: { setting: "network" },
  }),
  dataDir: option({
    parse: path,
    default: () => defaultDataDir(),
    shownDefault: "the OS data folder (below)",
    yaml: "data-dir",
    yamlAliases: ["dataDir"],
    path: true,
    flags: [{ name: "--data-dir", arg: "DIR", help: "where databases live" }],
    doc: "where the databases live; `~` is the home folder, a relative path is relative to the working folder (the YAML file's folder in the file)",
    desktop: { setting: "dataDir" },
  }),
  host: option({
    parse: host,
    // Loopback only by default: the node is a personal node (architecture §2.2).
    default: "127.0.0.1",
    flags: [{ name: "--host", arg: "HOST", help: "address to listen on" }],
    doc: "address to listen on; loopback keeps the node private",
  }),
  port: option({
    parse: integer(0, 65535),
    // The reference service API's port.
    default: 1848,
    flags: [{ name: "--port", arg: "N", help: "port; 0 = any free port" }],
    doc: "0–65535; 0 picks a free port",
    desktop: { setting: "port" },
  }),
  allowedHosts: option({
    parse: allowedHosts,
    default: (): readonly string[] => [],
    shownDefault: "none",
    flags: [
      {
        name: "--allowed-host",
        arg: "NAME[,NAME]",
        help: "more names the Host header may carry (a name peers reach this node by; loopback names and IPs always work)",
      },
    ],
    doc: 'more names the `Host` header may carry, on any port: the DNS names peers and wallets reach the node by (lower-cased; no scheme, port or path; a list in the file). Loopback names and IP addresses with the node\'s port, and `host`, always work; any other `Host` gets 403 `API_HOST_FORBIDDEN` (DNS rebinding; `docs/api.md` "Browsers")',
  }),
  // Off by default: the app (keystore, miner, backups, restore) answers only this computer
  // (api/appToken.ts `remote`, api/appApi.ts); on, other computers holding a code or the token
  // get in over plain HTTP: docs/node.md "The app token" says the risk.
  appRemote: option({
    parse: bool,
    default: false,
    flags: [
      {
        name: "--app-remote",
        help: "let browsers on other computers open the app with an address from weft app-url (default: this computer only; a risk on any network you do not control: docs/node.md)",
      },
    ],
    doc: 'let browsers on other computers open the app (its one-time addresses, `/app/api/*` with the token); read its risk in "The app token" (below) first',
  }),
  mining: {
    enabled: option({
      parse: bool,
      default: false,
      flags: [
        {
          name: "--mine",
          help: "run the built-in miner (needs --miner-account, except on development networks, where the blocks then pay sender09)",
        },
      ],
      doc: "run the built-in miner once the node listens; needs `mining.account` except on development networks, whose blocks then pay `sender09` (`docs/mining.md`)",
      desktop: { setting: "miningOnStart" },
      live: "the Mining panel, `POST /app/api/mining`",
    }),
    threads: optional({
      parse: integer(1, 1024),
      shownDefault: "1",
      flags: [{ name: "--miner-threads", arg: "N", help: "built-in miner threads" }],
      doc: "worker threads of the built-in miner (1–1024)",
      desktop: { setting: "miningThreads" },
      live: "the Mining panel, `POST /app/api/mining`",
    }),
    account: optional({
      parse: text,
      flags: [
        { name: "--miner-account", arg: "NAME", help: "account that receives mining rewards" },
      ],
      doc: "the account that receives mining rewards",
      live: "the Mining panel, `POST /app/api/mining`",
    }),
    publicKeys: optional({
      parse: textList,
      flags: [
        {
          name: "--miner-key",
          arg: "HEX[,HEX]",
          help: "its public key(s); not needed for a k:<key> account",
        },
      ],
      doc: "the reward account's public keys (hex; a list in the file); not needed for a `k:<key>` account",
      live: "the Mining panel, `POST /app/api/mining`",
    }),
    predicate: optional({
      parse: text,
      shownDefault: "keys-all",
      doc: "the reward keyset's predicate",
    }),
    apiEnabled: option({
      parse: bool,
      default: false,
      yaml: "mining.api.enabled",
      flags: [
        {
          name: "--enable-mining-api",
          help: "serve {base_url}/mining/work, /mining/solved, /mining/updates",
        },
      ],
      doc: "serve the mining API, `{base_url}/mining/work`, `/mining/solved`, `/mining/updates` (the spec's `mining.api.enabled`; `docs/mining.md`)",
      desktop: { setting: "miningApi" },
    }),
    onDemand: option({
      parse: onDemand,
      default: false,
      shownDefault: "false (`auto` in the app)",
      flags: [
        {
          name: "--mine-on-demand",
          help: "mine only while something waits for blocks: a transaction until it is confirmed, a cross-chain transfer until its proof can be made (development networks; without --miner-account the blocks pay sender09; docs/mining.md)",
        },
        {
          name: "--no-mine-on-demand",
          sets: false,
          help: "never (the default of weft node; the app's is on for development networks without a reward account)",
        },
      ],
      doc: 'true, false or `auto` (on without a reward account): on `development` and `test-singleton`, blocks only while something waits for them — commands until confirmed, a proof until its target chain is high enough (`docs/mining.md` "Mine on demand")',
      live: "the Mining panel, `POST /app/api/mining`",
    }),
    onDemandConfirmations: option({
      parse: integer(0, 100),
      default: 1,
      flags: [
        {
          name: "--on-demand-confirmations",
          arg: "N",
          help: "blocks mined on top of the one holding the transaction",
        },
      ],
      doc: "blocks mine on demand adds on top of the one holding the commands (0–100)",
    }),
    updateStreamTimeout: optional({
      parse: integer(1, DAY_S),
      shownDefault: "240",
      yaml: "mining.api.update-stream-timeout",
      doc: "seconds after which the node ends a `/mining/updates` stream (±10 %)",
      unit: "seconds",
    }),
    updateStreamLimit: optional({
      parse: integer(1, 100_000),
      shownDefault: "2000",
      yaml: "mining.api.update-stream-limit",
      doc: "most concurrent `/mining/updates` streams",
    }),
  },
  backup: {
    apiEnabled: option({
      parse: (value: unknown, ctx: CheckContext) => {
        const on = bool(value, ctx);
        if (on && ctx.given("backup.directory") === undefined) {
          throw badValue(
            "backup.directory",
            "needed with backup.api.enabled (--enable-backup-api)",
          );
        }
        return on;
      },
      default: false,
      yaml: "backup.api.enabled",
      flags: [
        { name: "--enable-backup-api", help: "serve {base_url}/make-backup and /check-backup" },
      ],
      doc: "serve `{base_url}/make-backup` and `/check-backup/{id}` (the spec's names); needs `backup.directory` (`docs/backup.md`)",
      desktop: { setting: "backupApi" },
    }),
    directory: optional({
      parse: path,
      path: true,
      flags: [{ name: "--backup-directory", arg: "DIR", help: "where backups are written" }],
      doc: "where backups are written; must exist (never created by the node)",
      desktop: { setting: "backupDir" },
    }),
  },
  commands: {
    listenTimeout: option({
      parse: seconds(DAY_S),
      default: 180,
      flags: [
        { name: "--listen-timeout", arg: "SECS", help: "how long /listen waits for a result" },
      ],
      doc: "how long `/listen` waits for a command's result before answering 504 (1–86400; `docs/api.md`)",
      unit: "seconds",
    }),
  },
  spv: {
    timeout: optional({
      parse: seconds(DAY_S),
      shownDefault: "180",
      flags: [
        { name: "--spv-timeout", arg: "SECS", help: "how long /spv waits for the target chain" },
      ],
      doc: "how long `/spv` waits for the target chain to reach the proof's height before answering 400 (1–86400; `docs/spv.md`)",
      unit: "seconds",
    }),
    proofDepth: optional({
      parse: integer(1, 1_000_000_000),
      shownDefault: "20000",
      flags: [
        {
          name: "--spv-proof-depth",
          arg: "N",
          help: "how deep a continuation's proof root may be",
        },
      ],
      doc: "how many blocks below a block's parent a continuation's proof root may be; older proofs have expired (`docs/spv.md`). A block-validity rule: keep the default unless every node you mine with uses the same value",
    }),
  },
  state: {
    archive: option({
      parse: bool,
      default: false,
      flags: [{ name: "--archive", help: "keep the whole contract-state history (no compaction)" }],
      doc: "keep the whole contract-state history (no compaction; /local at any `rewindDepth`)",
    }),
    horizon: optional({
      parse: integer(1, 1_000_000_000),
      shownDefault: "`spv.proof-depth` (20000)",
      flags: [
        {
          name: "--state-horizon",
          arg: "N",
          help: "blocks below each head whose contract state stays exact; older history is compacted (default: the SPV proof depth)",
        },
      ],
      doc: 'blocks below each chain\'s head whose contract state stays exact (1–10⁹): /local `rewindDepth` up to it, forks that deep rewound; older state history is compacted in the background (`docs/storage.md` "Contract state")',
    }),
  },
  p2p: {
    peers: option({
      parse: peerList,
      default: (): readonly string[] => [],
      shownDefault: "none",
      flags: [
        {
          name: "--peer",
          arg: "HOST:PORT",
          repeat: true,
          help: "a peer to connect to (repeatable; docs/p2p.md)",
        },
      ],
      doc: "peers to connect to, `[FINGERPRINT@]HOST:PORT` (a list in the file; the flag repeatable): sync and gossip between nodes (`docs/p2p.md`)",
      live: "the Node page's peers, `POST /app/api/peers`",
    }),
    port: optional({
      parse: integer(0, 65535),
      shownDefault: "the API's port",
      flags: [{ name: "--p2p-port", arg: "N", help: "port of the peer interface" }],
      doc: "port of the peer interface when apart from the API's (the same routes; 0: any free port)",
    }),
    maxPeers: option({
      parse: integer(1, 1024),
      default: 16,
      flags: [{ name: "--max-peers", arg: "N", help: "most peers" }],
      doc: "most peers the node keeps (1–1024)",
    }),
    entity: optional({
      parse: entityName,
      shownDefault: "none",
      flags: [{ name: "--entity", arg: "NAME", help: "this node's entity name for /private" }],
      doc: "the entity name `/private` addresses (`docs/private.md`)",
    }),
    trustedEntities: option({
      parse: trustedEntities,
      default: (): readonly { readonly name: string; readonly publicKey: string }[] => [],
      shownDefault: "none",
      flags: [
        {
          name: "--trust-entity",
          arg: "NAME=KEY",
          repeat: true,
          help: "an entity /private may talk to, pinned to its public key (as its node prints it at start; repeatable; docs/private.md)",
        },
      ],
      doc: "the entities `/private` may talk to, each pinned to its public key exactly as its node shows it (printed by `weft node` at start, `publicKey` of `GET {base_url}/private/entity`, the Node page); a map NAME: KEY in the file; flags replace the file's list (`docs/private.md`)",
      live: "the Node page's entities (`private/trusted-entities.json`)",
    }),
    tls: option({
      parse: (value: unknown, ctx: CheckContext) => {
        const on = bool(value, ctx);
        if (on && ctx.given("p2p.port") === undefined) {
          throw badValue(
            ctx.key,
            "needs p2p.port (--p2p-port): peers reach the node over TLS there, the API's port stays plain HTTP",
          );
        }
        return on;
      },
      default: false,
      flags: [
        {
          name: "--p2p-tls",
          help: "TLS on the peer port (needs --p2p-port); peers name it FINGERPRINT@HOST:PORT",
        },
      ],
      doc: 'TLS on the peer port (needs `p2p.port`): a self-signed certificate whose fingerprint names the node to peers, `FINGERPRINT@HOST:PORT` (`docs/p2p.md` "TLS")',
    }),
    allowPrivateAddresses: option({
      parse: bool,
      default: false,
      flags: [
        {
          name: "--p2p-allow-private-addresses",
          help: "take loopback, link-local and private addresses learnt from peers (default: only those of the kind this node publishes)",
        },
      ],
      doc: "take loopback, link-local and private addresses learnt from peers even when this node publishes another kind (`docs/p2p.md`)",
    }),
  },
};
