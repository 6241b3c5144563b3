/**
 * The composition root: `createNode(options)` opens the stores of the
 * configured network under the data directory, wires the services and the
 * HTTP API, and (unless told not to) starts listening.
 *
 *   options → config (checked, defaults) → BlockDb (blocks.sqlite)
 *           → StateDb (state.sqlite) → ChainExecutor (genesis state, executes
 *             every block before BlockDb accepts it, follows the best cut)
 *           → execution workers (exec/workerExecution.ts: /local and payload
 *             building off the event loop, on read-only connections)
 *           → CommandService (mempool, /send /local /poll /listen /private,
 *             the mining payload provider)
 *           → mining (service, update streams, built-in miner)
 *           → peer network (p2p/peerNetwork.ts: peers, sync, gossip)
 *           → HTTP API (api/buildServer.ts) → listen → built-in miner (when enabled)
 *           → peer network started (it publishes the node's address)
 *
 * Each service, once open, is registered on the node's {@link Lifecycle}
 * (runtime/lifecycle.ts) under its key in {@link NodeModules}: `close()` and a
 * start that fails part-way unwind that one stack, stopping then closing in
 * reverse start order. A new service is a `NodeModules` field, opened in
 * `openStores`/`openServices` with its step, and given to the API through
 * `ApiServices`.
 *
 * The resolved node satisfies the desktop shell's `HostedNode`
 * (electron/nodeHost.ts: `baseUrl`, `appUrl`, `close()`), and adds what the
 * command line, tests and later areas need (src-node/README.md).
 * @module
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { ApiLog } from "./api/apiServices.ts";
import { APP_CODE_PARAM } from "./api/appCodes.ts";
import { APP_ADDRESS_FILE, APP_TOKEN_FILE, type AppToken, createAppToken } from "./api/appToken.ts";
import { appUrlCommandLine } from "./api/appUrlCommandLine.ts";
import { buildApi, requestTimeouts } from "./api/buildServer.ts";
import { DappSigning, type SignRequestNotice } from "./api/dappSigning/dappSigning.ts";
import { ApiError, ApiErrorCode, isAddressInUse } from "./api/errors.ts";

/** For the hosts (`weft node`, the desktop, the headless launcher): a port another program has. */
export { portInUse } from "./api/errors.ts";

import type { NodeRestarter } from "./api/nodeRestart.ts";
import { AppBackups } from "./backup/appBackups.ts";
import { BackupService } from "./backup/backupService.ts";
import { acquireDataLock, type DataLock } from "./backup/dataLock.ts";
import { type NodeDatabases, nodeBackupSources } from "./backup/nodeDatabases.ts";
import type { MinerInfo } from "./chain/minerData.ts";
import type { NetworkVersion } from "./chain/networkVersion.ts";
import type { PayloadWithOutputs } from "./chain/payloadWithOutputs.ts";
import { versionByName } from "./chain/versions.ts";
import { badValue } from "./config/errors.ts";
import {
  type NodeOptions,
  type NodeOptionsInput,
  resolveNodeOptions,
} from "./config/nodeOptions.ts";
import { NODE_SERVICE_DATE, packageVersion } from "./config/nodeParams.ts";
import { ON_DEMAND_NETWORKS } from "./config/optionChecks.ts";
import { isNodeError } from "./errors/nodeError.ts";
import { ChainExecutor } from "./exec/chainExecutor.ts";
import { type ExecutionHost, InProcessExecution } from "./exec/executionHost.ts";
import { insertExecutedAhead } from "./exec/insertExecutedAhead.ts";
import { defaultStateHorizon, StateCompactor } from "./exec/stateCompactor.ts";
import { WorkerExecution } from "./exec/workerExecution.ts";
import { devAccount } from "./genesis/devAccounts.ts";
import { genesisPayloadOf } from "./genesis/genesisPayloads.ts";
import { runGenesis } from "./genesis/runGenesis.ts";
import { ChainIndex } from "./index/chainIndex.ts";
import { Explorer } from "./index/explorer.ts";
import { CommandService } from "./mempool/commandService.ts";
import { Mempool } from "./mempool/mempool.ts";
import { BuiltInMiner } from "./mining/builtInMiner.ts";
import { MiningError, MiningErrorCode } from "./mining/errors.ts";
import { MineOnDemand } from "./mining/mineOnDemand.ts";
import { minerInfoOf } from "./mining/minerInfo.ts";
import { MiningService } from "./mining/miningService.ts";
import type { PayloadProvider } from "./mining/payloadProvider.ts";
import { UpdateStreams } from "./mining/updateStreams.ts";
import { NodeIdentity } from "./p2p/nodeIdentity.ts";
import { peerKey } from "./p2p/peerAddress.ts";
import { PeerNetwork } from "./p2p/peerNetwork.ts";
import { loadOrCreateEntityKeys } from "./p2p/private/entityKeys.ts";
import { PrivateService } from "./p2p/private/privateService.ts";
import { loadOrCreatePeerCertificate } from "./p2p/tls/peerCertificate.ts";
import { CatchUpStatus } from "./runtime/catchUpStatus.ts";
import { Lifecycle, type LifecycleProbe } from "./runtime/lifecycle.ts";
import { RecentLog } from "./runtime/recentLog.ts";
import { type Block, BlockDb, type InsertResult } from "./store/blockDb.ts";
import { MempoolStore } from "./store/mempoolStore.ts";
import { makePrivateDir, writePrivateFile } from "./store/privateFiles.ts";
import { StateDb } from "./store/stateDb.ts";

/** Structured log sink (the desktop passes its log file; the CLI prints warnings and errors). */
export type NodeLogger = ApiLog;

/**
 * What a host gives the node besides its options (the desktop shell, `weft node`, the
 * headless launcher): its process's parts, the app token, and callbacks.
 */
export type NodeHostHooks = {
  /** better_sqlite3.node for this process's ABI (the desktop's Electron build). */
  readonly sqliteNativeBinding?: string | undefined;
  readonly logger?: NodeLogger | undefined;
  /** The file `logger` writes, if any: shown on the Node page (`/app/api/node/status`). */
  readonly logFile?: string | undefined;
  /**
   * Start listening before resolving (default true, what the desktop and the
   * CLI want). With false the node is complete but not listening: tests use
   * `node.server.inject()`, and `start()` listens later.
   */
  readonly listen?: boolean | undefined;
  /** The built UI served under `/app/` (default `<repo>/dist/renderer`; tests pass their own build). */
  readonly rendererDir?: string | undefined;
  /**
   * The secret `/app/api/*` needs (api/appToken.ts; default: 32 random bytes
   * made at start). The desktop shell passes its own and adds it to its
   * window's requests as `X-Weft-App-Token`.
   */
  readonly appToken?: string | undefined;
  /**
   * Whether `/app/?code=…` exchanges a one-time code (api/appCodes.ts) for the
   * token as a cookie (default true: a browser on a headless node needs it).
   * The desktop turns it off: its window sends the header, and no address
   * opens its node's app in a browser. Loading `/app/` alone never hands it out.
   */
  readonly appTokenCookie?: boolean | undefined;
  /**
   * The host's restart (api/nodeRestart.ts: the desktop and the headless
   * launcher pass one); without it the app's restart and restore routes
   * answer APP_RESTART_UNAVAILABLE.
   */
  readonly restart?: NodeRestarter | undefined;
  /**
   * Called when a dapp's signing request starts waiting for the user (docs/dapp-signing.md):
   * the desktop shell brings its window to the front (electron/nodeHost.ts passes it on).
   */
  readonly onSignRequest?: ((request: SignRequestNotice) => void) | undefined;
};

/** Knobs for tests: the clock, genesis, payloads, threads and pacing (no host sets them). */
export type NodeTestKnobs = {
  /** Clock for block validation, µs since the UNIX epoch. */
  readonly now?: (() => number) | undefined;
  /**
   * Genesis payload of each chain (default: the network's genesis payloads,
   * which install the system contracts; genesis/genesisPayloads.ts).
   */
  readonly genesisPayload?: ((chainId: number) => PayloadWithOutputs) | undefined;
  /** Largest request body in bytes (default 2 MiB). */
  readonly bodyLimit?: number | undefined;
  /**
   * How long a client may take to send a whole request, head and body, ms
   * (default 30 s): then 408, or the connection closed (docs/api.md "Every
   * request is answered").
   */
  readonly requestTimeoutMs?: number | undefined;
  /**
   * Payloads of mined blocks (default: mempool commands executed on the
   * parent's state, mempool/commandService.ts). A provider must produce
   * payloads that execute to their outputs, or the blocks are rejected.
   */
  readonly payloadProvider?: PayloadProvider | undefined;
  /**
   * Execution worker threads for /local and payload building (default 2,
   * started on demand); 0 runs them on the node's thread.
   */
  readonly executionWorkers?: number | undefined;
  /** /local commands with a gas limit up to this run on the node's thread (exec/workerExecution.ts, default 2,500). */
  readonly inlineLocalGasLimit?: number | undefined;
  /** How often the peer network reads each peer's cut, ms (default 1,000; docs/p2p.md). */
  readonly peerPollIntervalMs?: number | undefined;
  /** Blocks per step of the explorer index's catching up (default 256; index/chainIndex.ts). */
  readonly indexStepBlocks?: number | undefined;
  /** How long a dapp's signing request waits for the user, ms (default 5 minutes; docs/dapp-signing.md). */
  readonly signRequestTimeoutMs?: number | undefined;
  /** Watches the lifecycle (a probe that throws fails the start after that step). */
  readonly lifecycleProbe?: LifecycleProbe | undefined;
};

/**
 * What `createNode` takes: the node's options (the option table's, as flags, the YAML
 * file and the desktop settings give them; config/nodeOptionTable.ts), the host's hooks
 * and test knobs. Durations are the options' (seconds, fractions allowed from code).
 */
export type CreateNodeOptions = NodeOptionsInput & NodeHostHooks & NodeTestKnobs;

/** `dataDir/<network>/entity-key.json`: the node's entity identity key for `/private` (docs/private.md). */
export function entityKeyPath(options: Pick<NodeOptions, "dataDir" | "network">): string {
  return join(options.dataDir, options.network, "entity-key.json");
}

/** `dataDir/<network>/p2p-tls/`: the peer port's certificate and key when `p2p.tls` (docs/p2p.md). */
export function tlsDir(options: Pick<NodeOptions, "dataDir" | "network">): string {
  return join(options.dataDir, options.network, "p2p-tls");
}

/** `dataDir/<network>/node-key.pem`: the node's identity among peers, Ed25519 (docs/p2p.md). */
export function nodeKeyPath(options: Pick<NodeOptions, "dataDir" | "network">): string {
  return join(options.dataDir, options.network, "node-key.pem");
}

/** `dataDir/<network>/peers.json`: the peers the node knows, and bans (docs/p2p.md). */
export function peersPath(options: Pick<NodeOptions, "dataDir" | "network">): string {
  return join(options.dataDir, options.network, "peers.json");
}

/** `dataDir/<network>/app-token`: the app token while the node runs (0600), for `curl` users. */
export function appTokenPath(options: Pick<NodeOptions, "dataDir" | "network">): string {
  return join(options.dataDir, options.network, APP_TOKEN_FILE);
}

/**
 * `dataDir/<network>/app-address`: where this computer reaches the running node
 * (`http://127.0.0.1:PORT`, 0600), for `weft app-url` (cli/appUrl.ts).
 */
export function appAddressPath(options: Pick<NodeOptions, "dataDir" | "network">): string {
  return join(options.dataDir, options.network, APP_ADDRESS_FILE);
}

/**
 * The reward miner of the options, if an account is set.
 * @throws {ConfigError} CONFIG_BAD_VALUE naming `mining.account`, `mining.public-keys` or `mining.predicate`.
 */
function configuredMiner(options: NodeOptions): MinerInfo | undefined {
  const { account, publicKeys, predicate } = options.mining;
  if (account === undefined) {
    if (publicKeys !== undefined)
      throw badValue("mining.account", "needed with mining.public-keys");
    return undefined;
  }
  try {
    return minerInfoOf(account, publicKeys ?? [], predicate);
  } catch (e) {
    if (!(e instanceof MiningError) || e.type.code !== MiningErrorCode.BadMinerInfo) throw e;
    const field = e.type.field.startsWith("public-keys") ? "public-keys" : e.type.field;
    throw badValue(`mining.${field}`, e.type.reason);
  }
}

/** `dataDir/<network>/wallet`: the wallet's files (`keystore.json`; docs/wallet.md). */
export function walletDirPath(options: Pick<NodeOptions, "dataDir" | "network">): string {
  return join(options.dataDir, options.network, "wallet");
}

/** Who mine on demand pays without a reward account: test account {@link ON_DEMAND_PAYEE} (docs/dev-accounts.md). */
function onDemandPayee(): MinerInfo {
  const a = devAccount(ON_DEMAND_PAYEE);
  return minerInfoOf(a.account, [a.publicKey], "keys-all");
}

/** `sender09`: the test account mined blocks pay when mine on demand runs without a reward account. */
export const ON_DEMAND_PAYEE = 9;

/** `dataDir/<network>/blocks.sqlite` */
export function blocksPath(options: Pick<NodeOptions, "dataDir" | "network">): string {
  return join(options.dataDir, options.network, "blocks.sqlite");
}

/** `dataDir/<network>/state.sqlite` */
export function statePath(options: Pick<NodeOptions, "dataDir" | "network">): string {
  return join(options.dataDir, options.network, "state.sqlite");
}

/** `dataDir/<network>/mempool.sqlite`: the pending commands, kept across restarts. */
export function mempoolPath(options: Pick<NodeOptions, "dataDir" | "network">): string {
  return join(options.dataDir, options.network, "mempool.sqlite");
}

/** `dataDir/<network>/index.sqlite`: the explorer's index (rebuilt when missing). */
export function indexPath(options: Pick<NodeOptions, "dataDir" | "network">): string {
  return join(options.dataDir, options.network, "index.sqlite");
}

/**
 * The backup service when `backup.directory` is set. `state`: the
 * contract-state database's connection once the node opens state.sqlite
 * (copied with `backupPact`, before the blocks; backup/nodeDatabases.ts).
 */
function backupService(
  options: NodeOptions,
  version: NetworkVersion,
  dbs: Omit<NodeDatabases, "version" | "blocks"> & { readonly blocks: BlockDb },
  log: NodeLogger | undefined,
): BackupService | undefined {
  const directory = options.backup.directory;
  if (directory === undefined) return undefined;
  return new BackupService({
    directory,
    network: version.name,
    softwareVersion: packageVersion(),
    databases: nodeBackupSources({
      ...dbs,
      version,
      blocks: dbs.blocks.store.db,
    }),
    log,
  });
}

function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * Every service a node wires, in the order {@link WeftNode.open} opens them. Each one that
 * holds work, requests, threads or files is registered on the node's {@link Lifecycle}
 * under its key here (test/unit/nodeLifecycle.test.ts checks that every module with a
 * `close` is), so `close()` and a failed start unwind the same list.
 */
export type NodeModules = {
  /** The last lines the node logged (the Node page's log view, `/app/api/node/log`). */
  readonly recentLog: RecentLog;
  /** Where areas report what they are catching up on (`/app/api/node/status`, the app's banner). */
  readonly catchUp: CatchUpStatus;
  /** `dataDir/<network>/node.lock`, held from before the databases open until they are closed. */
  readonly lock: DataLock;
  readonly blocks: BlockDb;
  /** The contract state of every chain (state.sqlite). */
  readonly state: StateDb;
  /** Executes blocks and keeps the state on the best cut. */
  readonly executor: ChainExecutor;
  /** Compacts the state's history below the horizon in the background; undefined on an archive node. */
  readonly compactor: StateCompactor | undefined;
  /** Where /local and payload building run (execution workers, or in process). */
  readonly execution: ExecutionHost;
  /** mempool.sqlite: the pending commands, kept across restarts. */
  readonly mempoolStore: MempoolStore;
  /** The contract command endpoints' service and the mempool. */
  readonly commands: CommandService;
  /** `/private` between addressed nodes: entity, keys, private state (p2p/private/, docs/private.md). */
  readonly private: PrivateService;
  /** Backup jobs, when `backup.directory` is set (the API needs `backup.api.enabled` too). */
  readonly backup: BackupService | undefined;
  /** The explorer's index of the blocks (index.sqlite; docs/explorer-api.md). */
  readonly index: ChainIndex;
  /** The app's backups (`/app/api/backup/*`, the backup page; backup/appBackups.ts). */
  readonly appBackups: AppBackups;
  /** Work, solutions and work updates (the mining API and the built-in miner use it). */
  readonly mining: MiningService;
  /** `/mining/updates` streams, when the mining API is on. */
  readonly miningStreams: UpdateStreams | undefined;
  /** The built-in CPU miner (started by `mining.enabled`, `--mine` or `/app/api/mining`). */
  readonly miner: BuiltInMiner;
  /** The peer network: peers, sync, mempool gossip (p2p/peerNetwork.ts). */
  readonly p2p: PeerNetwork;
  /** Chainweaver's local signing API for dapps, off by default (docs/dapp-signing.md). */
  readonly dappSigning: DappSigning;
  readonly server: FastifyInstance;
  /** `{base_url}`'s path: `/ledger/0.0/{network}`. */
  readonly basePath: string;
};

/** What every opening step reads. */
type OpenContext = {
  readonly input: CreateNodeOptions;
  readonly options: NodeOptions;
  readonly version: NetworkVersion;
  readonly log: NodeLogger;
  readonly life: Lifecycle;
};

type Stores = Pick<
  NodeModules,
  "lock" | "blocks" | "state" | "executor" | "compactor" | "execution" | "mempoolStore"
>;

/** The data folder's lock, the app token's file, the databases and block execution. */
function openStores(ctx: OpenContext, token: AppToken): Stores {
  const { input, options, version, log, life } = ctx;
  // Held while the node runs: a second node or a restore on this folder is refused.
  const lock = acquireDataLock(join(options.dataDir, options.network), "node");
  life.add("lock", { close: () => lock.release() });
  // The user's alone: 0700 folders, 0600 files (store/privateFiles.ts);
  // the lock made dataDir/<network> so, this tightens an older dataDir.
  makePrivateDir(options.dataDir);
  const tokenFile = appTokenPath(options);
  writePrivateFile(tokenFile, `${token.value}\n`);
  life.add("appTokenFile", { close: () => rmSync(tokenFile, { force: true }) });
  const blocks = BlockDb.open({
    path: blocksPath(options),
    version,
    nativeBinding: input.sqliteNativeBinding,
    now: input.now,
    genesisPayload: input.genesisPayload ?? ((chainId) => genesisPayloadOf(version, chainId)),
    log,
  });
  life.add("blocks", { close: () => blocks.close() });
  const state = StateDb.open({
    path: statePath(options),
    nativeBinding: input.sqliteNativeBinding,
  });
  life.add("state", { close: () => state.close() });
  const executor = ChainExecutor.open({
    version,
    blocks,
    state,
    genesis: (chainId, storage) => {
      runGenesis(version, chainId, storage);
    },
    genesisKey: `runGenesis/${version.name}`,
    log,
    spvProofDepth: options.spv.proofDepth,
  });
  life.add("executor", { close: () => executor.close() });
  // History below the horizon is compacted in the background (docs/storage.md).
  let compactor: StateCompactor | undefined;
  if (!options.state.archive) {
    const c = new StateCompactor({
      version,
      state,
      horizon: options.state.horizon ?? defaultStateHorizon(executor.spvProofDepth),
      log,
    });
    c.start();
    life.add("compactor", { close: () => c.close() });
    compactor = c;
  }
  const workers = input.executionWorkers ?? undefined;
  const execution: ExecutionHost =
    workers === 0
      ? new InProcessExecution(executor)
      : new WorkerExecution({
          executor,
          statePath: statePath(options),
          blocksPath: blocksPath(options),
          nativeBinding: input.sqliteNativeBinding,
          workers,
          log,
          inlineLocalGasLimit: input.inlineLocalGasLimit,
        });
  // Workers read the databases: they stop before the databases close.
  life.add("execution", { close: () => execution.close() });
  const mempoolStore = MempoolStore.open({
    path: mempoolPath(options),
    nativeBinding: input.sqliteNativeBinding,
  });
  life.add("mempoolStore", { close: () => mempoolStore.close() });
  return { lock, blocks, state, executor, compactor, execution, mempoolStore };
}

type Services = Pick<
  NodeModules,
  | "commands"
  | "private"
  | "backup"
  | "index"
  | "appBackups"
  | "mining"
  | "miningStreams"
  | "miner"
  | "p2p"
  | "dappSigning"
> & { readonly explorer: Explorer };

/** The services over the stores: commands, `/private`, backups, the index, mining, peers, dapp signing. */
function openServices(ctx: OpenContext, stores: Stores, catchUp: CatchUpStatus): Services {
  const { input, options, version, log, life } = ctx;
  const { blocks, state, executor, execution, mempoolStore } = stores;
  const commands = new CommandService({
    executor,
    execution,
    blocks,
    mempool: new Mempool({ store: mempoolStore }),
    now: input.now,
    listenTimeoutMs: Math.round(options.commands.listenTimeout * 1000),
    spvTimeoutMs:
      options.spv.timeout === undefined ? undefined : Math.round(options.spv.timeout * 1000),
  });
  // Waiting /listen requests end (503) before the HTTP server closes.
  life.add("commands", { stop: () => commands.close() });
  // Commands a previous run accepted and did not mine (even if it was killed).
  const pending = commands.restorePending(mempoolStore);
  if (pending.restored + pending.dropped > 0) log.info("mempool restored", pending);
  const entityKeys = loadOrCreateEntityKeys(entityKeyPath(options));
  if (entityKeys.movedAside !== undefined) {
    log.warn(
      `p2p: private: the entity key file held an X25519 key of an older Weft (moved to ${entityKeys.movedAside}); this node has a new identity key`,
    );
  }
  let p2p: PeerNetwork | undefined;
  const privateService = new PrivateService({
    version,
    entity: options.p2p.entity,
    keys: entityKeys.keys,
    trusted: options.p2p.trustedEntities,
    networkDir: join(options.dataDir, options.network),
    // The peer network comes later; it is there before any request.
    peers: () => p2p?.peerAddresses() ?? [],
    // A false entity key or a missing receipt is a lie of the peer this node asked.
    penalize: (address, reason) => p2p?.penalize(address, "malformed", reason),
    log,
    now: input.now,
    nativeBinding: input.sqliteNativeBinding,
  });
  life.add("private", { close: () => privateService.close() });
  // A node with an entity backs up its private state and its pins (docs/private.md).
  const privateState = privateService.stateDatabase;
  const privateBackup = {
    privateState,
    trustFile: privateState === undefined ? undefined : privateService.trust.file,
  };
  const backup = backupService(
    options,
    version,
    { blocks, state: state.db, mempool: mempoolStore.db, ...privateBackup },
    log,
  );
  // A running backup copies through the databases' connections: it stops before they close.
  if (backup !== undefined) life.add("backup", { close: () => backup.close() });
  const parts = { blocks, executor, execution };
  // After the executor: on a cut change the state moves first, then the index.
  const index = ChainIndex.open({
    path: indexPath(options),
    blocks,
    nativeBinding: input.sqliteNativeBinding,
    log,
    stepBlocks: input.indexStepBlocks,
    catchUp,
  });
  life.add("index", { close: () => index.close() });
  const explorer = new Explorer({ index, blocks, state, mempool: commands.mempool });
  const appBackups = new AppBackups({
    dataDir: options.dataDir,
    network: version.name,
    networkDir: join(options.dataDir, options.network),
    softwareVersion: packageVersion(),
    databases: nodeBackupSources({
      version,
      blocks: blocks.store.db,
      state: state.db,
      mempool: mempoolStore.db,
      ...privateBackup,
    }),
    log,
  });
  life.add("appBackups", { close: () => appBackups.close() });
  const mining = new MiningService({
    chain: blocks,
    insertBlock: (block) => insertExecutedAhead(parts, block),
    payloadProvider: input.payloadProvider ?? commands.payloadFor,
    clock: input.now,
    log,
  });
  life.add("mining", { close: () => mining.close() });
  // New commands: work on their chain is refreshed (`Refreshed Block`), so
  // the built-in miner and `weft mine` include them without waiting for a block.
  commands.mempool.onAdded((chainId) => mining.updates.requestRefresh(chainId));
  let miningStreams: UpdateStreams | undefined;
  if (options.mining.apiEnabled) {
    const streams = new UpdateStreams(mining.updates, {
      timeoutMs:
        options.mining.updateStreamTimeout === undefined
          ? undefined
          : options.mining.updateStreamTimeout * 1000,
      limit: options.mining.updateStreamLimit,
    });
    life.add("miningStreams", { stop: () => streams.close() });
    miningStreams = streams;
  }
  const miner = builtInMiner(ctx, blocks, mining, commands);
  life.add("miner", { stop: () => miner.close() });
  const peers = new PeerNetwork({
    // The table's p2p options, which PeerNetworkOptions names alike: a new one is read
    // there, not wired here (the fields below are the node's own).
    ...options.p2p,
    version,
    blocks,
    insertBlock: (block) => insertExecutedAhead(parts, block),
    // Blocks without transactions commit together: one commit per database and batch.
    batch: (run) =>
      blocks.store.transaction(() => state.transaction(() => index.store.transaction(run))),
    commands,
    miner,
    catchUp,
    // The explorer index catches up after a sync rather than block by block during it.
    onCatchingUp: (on) => index.defer(on),
    file: peersPath(options),
    identity: NodeIdentity.loadOrCreate(nodeKeyPath(options)),
    log,
    pollIntervalMs: input.peerPollIntervalMs,
  });
  life.add("p2p", { stop: () => peers.close() });
  p2p = peers;
  const dappSigning = new DappSigning({
    walletDir: walletDirPath(options),
    timeoutMs: input.signRequestTimeoutMs,
    log,
    onRequest:
      input.onSignRequest === undefined
        ? undefined
        : (r) => input.onSignRequest?.({ id: r.id, kind: r.kind, origin: r.origin }),
  });
  // Held signing requests and the page's long-polls end before the servers close.
  life.add("dappSigning", { stop: () => dappSigning.close() });
  return {
    commands,
    private: privateService,
    backup,
    index,
    explorer,
    appBackups,
    mining,
    miningStreams,
    miner,
    p2p: peers,
    dappSigning,
  };
}

/** The built-in miner, with mine on demand on the development networks (docs/mining.md). */
function builtInMiner(
  ctx: OpenContext,
  blocks: BlockDb,
  mining: MiningService,
  commands: CommandService,
): BuiltInMiner {
  const { options, version, log } = ctx;
  const mempool = commands.mempool;
  const onDemandNetwork = ON_DEMAND_NETWORKS.includes(version.name);
  // Mine on demand exists on the development networks only (docs/mining.md).
  const demand = onDemandNetwork
    ? new MineOnDemand({
        chain: blocks,
        pending: (chainId) => mempool.size(chainId),
        confirmations: options.mining.onDemandConfirmations,
      })
    : undefined;
  const miner = new BuiltInMiner({
    service: mining,
    threads: options.mining.threads,
    minerInfo: configuredMiner(options),
    log,
    demand,
    demandMinerInfo: onDemandNetwork ? onDemandPayee() : undefined,
  });
  // A proof waiting for its target chain is demand too: the chain (and,
  // through the braid, its neighbours) is mined up to the proof's height.
  if (demand !== undefined) {
    commands.spv.onWait((chainId, height) => {
      demand.owe(chainId, height);
      miner.wake();
    });
  }
  return miner;
}

export class WeftNode {
  readonly options: NodeOptions;
  readonly version: NetworkVersion;
  /** Every service the node wired (the fields below are the same objects). */
  readonly modules: NodeModules;
  /**
   * The services in the order they started, which `close()` (and a failed start) unwinds:
   * `lifecycle.shutdownOrder()` is the one shutdown order (runtime/lifecycle.ts).
   */
  readonly lifecycle: Lifecycle;
  readonly blocks: BlockDb;
  readonly server: FastifyInstance;
  /** `{base_url}`'s path: `/ledger/0.0/{network}`. */
  readonly basePath: string;
  /** Work, solutions and work updates (the mining API and the built-in miner use it). */
  readonly mining: MiningService;
  /** The built-in CPU miner (started by `mining.enabled`, `--mine` or `/app/api/mining`). */
  readonly miner: BuiltInMiner;
  /** Backup jobs, when `backup.directory` is set (the API needs `backup.api.enabled` too). */
  readonly backup: BackupService | undefined;
  /** The app's backups (`/app/api/backup/*`, the backup page; backup/appBackups.ts). */
  readonly appBackups: AppBackups;
  /** The contract state of every chain (state.sqlite). */
  readonly state: StateDb;
  /** Executes blocks and keeps the state on the best cut. */
  readonly executor: ChainExecutor;
  /** Compacts the state's history below the horizon in the background; undefined on an archive node. */
  readonly compactor: StateCompactor | undefined;
  /** Where /local and payload building run (execution workers, or in process). */
  readonly execution: ExecutionHost;
  /** The contract command endpoints' service and the mempool. */
  readonly commands: CommandService;
  /** The explorer's index of the blocks (index.sqlite; docs/explorer-api.md). */
  readonly index: ChainIndex;
  /** The peer network: peers, sync, mempool gossip (p2p/peerNetwork.ts). */
  readonly p2p: PeerNetwork;
  /** `/private` between addressed nodes: entity, keys, private state (p2p/private/, docs/private.md). */
  readonly private: PrivateService;
  /** The secret `/app/api/*` needs (header `X-Weft-App-Token`; api/appToken.ts). */
  readonly appToken: string;
  /** Where the token is written while the node runs (`dataDir/<network>/app-token`, 0600). */
  readonly appTokenFile: string;
  /** Where the node's address for this computer is written while it listens (`app-address`, 0600). */
  readonly appAddressFile: string;
  /** The last lines the node logged (the Node page's log view, `/app/api/node/log`). */
  readonly recentLog: RecentLog;
  /** Chainweaver's local signing API for dapps, off by default (docs/dapp-signing.md). */
  readonly dappSigning: DappSigning;
  /** Where areas report what they are catching up on (`/app/api/node/status`, the app's banner). */
  readonly catchUp: CatchUpStatus;
  readonly #log: NodeLogger;
  readonly #appToken: AppToken;
  #port: number | undefined;
  #closing: Promise<void> | undefined;

  private constructor(ctx: OpenContext, modules: NodeModules, appToken: AppToken) {
    this.options = ctx.options;
    this.version = ctx.version;
    this.lifecycle = ctx.life;
    this.#log = ctx.log;
    this.modules = modules;
    this.appToken = appToken.value;
    this.#appToken = appToken;
    this.appTokenFile = appTokenPath(ctx.options);
    this.appAddressFile = appAddressPath(ctx.options);
    this.recentLog = modules.recentLog;
    this.catchUp = modules.catchUp;
    this.blocks = modules.blocks;
    this.state = modules.state;
    this.executor = modules.executor;
    this.compactor = modules.compactor;
    this.execution = modules.execution;
    this.commands = modules.commands;
    this.private = modules.private;
    this.backup = modules.backup;
    this.index = modules.index;
    this.appBackups = modules.appBackups;
    this.mining = modules.mining;
    this.miner = modules.miner;
    this.p2p = modules.p2p;
    this.dappSigning = modules.dappSigning;
    this.server = modules.server;
    this.basePath = modules.basePath;
  }

  /**
   * Builds the node (stores open, server built, not listening). A step that fails unwinds
   * the lifecycle: every service opened before it is stopped and closed, in reverse.
   */
  static async open(input: CreateNodeOptions): Promise<WeftNode> {
    const options = resolveNodeOptions(input);
    // Every line the node logs is also kept for the Node page's log view.
    const recentLog = new RecentLog();
    const log = recentLog.wrap(input.logger);
    const catchUp = new CatchUpStatus();
    const version = versionByName(options.network, "network");
    const life = new Lifecycle(input.lifecycleProbe);
    const ctx: OpenContext = { input, options, version, log, life };
    const token: AppToken = createAppToken({
      value: input.appToken,
      cookieByCode: input.appTokenCookie ?? true,
      remote: options.appRemote,
    });
    try {
      const stores = openStores(ctx, token);
      const { explorer, ...services } = openServices(ctx, stores, catchUp);
      // The API asks for the node's origin at request time (config.json), once it listens.
      let self: WeftNode | undefined;
      const api = buildApi(
        {
          version,
          blocks: stores.blocks,
          packageVersion: packageVersion(),
          clock: input.now,
          serviceDate: NODE_SERVICE_DATE,
          log,
          miningApi:
            services.miningStreams === undefined
              ? undefined
              : { service: services.mining, streams: services.miningStreams },
          backup: options.backup.apiEnabled ? services.backup : undefined,
          appBackups: services.appBackups,
          dataDir: options.dataDir,
          miner: services.miner,
          commands: services.commands,
          explorer,
          p2p: services.p2p,
          private: services.private,
          rendererDir: input.rendererDir,
          appToken: token,
          walletDir: walletDirPath(options),
          origin: () => (self?.listening === true ? self.origin : undefined),
          nodePage: { recentLog, catchUp, dataDir: options.dataDir, logFile: input.logFile },
          launchId: randomBytes(9).toString("base64url"),
          restart: input.restart,
          networkDir: join(options.dataDir, options.network),
          dappSigning: services.dappSigning,
        },
        {
          bodyLimit: input.bodyLimit,
          requestTimeoutMs: input.requestTimeoutMs,
          hosts: { configuredHost: options.host, allowedHosts: options.allowedHosts },
        },
      );
      life.add("server", { close: () => api.server.close() });
      self = new WeftNode(
        ctx,
        { recentLog, catchUp, ...stores, ...services, server: api.server, basePath: api.base },
        token,
      );
      return self;
    } catch (e) {
      try {
        await life.unwind();
      } catch (closeError) {
        log.warn("closing after a failed start failed", { error: String(closeError) });
      }
      throw e;
    }
  }

  get listening(): boolean {
    return this.#port !== undefined;
  }

  /** `http://HOST:PORT` once listening. */
  get origin(): string {
    if (this.#port === undefined) {
      throw new ApiError(
        { code: ApiErrorCode.NotListening },
        "the node is not listening yet; call start()",
      );
    }
    return `http://${urlHost(this.options.host)}:${this.#port}`;
  }

  /** `http://HOST:PORT/ledger/0.0/{network}` once listening. */
  get baseUrl(): string {
    return `${this.origin}${this.basePath}`;
  }

  /** `http://HOST:PORT/app/`: where the node serves the UI (api/routes/appUiRoutes.ts). */
  get appUrl(): string {
    return `${this.origin}/app/`;
  }

  /**
   * Where this computer reaches the node once it listens: its origin, with a loopback
   * address for a wildcard host (`0.0.0.0`, `::`), which names no host a browser can use.
   */
  get localOrigin(): string {
    const host = this.options.host;
    if (host !== "0.0.0.0" && host !== "::") return this.origin;
    return `http://${host === "::" ? "[::1]" : "127.0.0.1"}:${new URL(this.origin).port}`;
  }

  /**
   * A one-time address that opens the app in a browser, `http://127.0.0.1:PORT/app/?code=…`
   * (api/appCodes.ts): opening it exchanges the code for the app token's cookie once.
   * @param lifetimeMs how long the code works; null (default): until it is used or the node
   *   stops.
   * @throws {ApiError} API_NOT_LISTENING before start().
   */
  appCodeUrl(lifetimeMs: number | null = null): string {
    const origin = this.localOrigin;
    return `${origin}/app/?${APP_CODE_PARAM}=${this.issueAppCode(lifetimeMs)}`;
  }

  /**
   * `weft app-url --data-dir … --network …`: the command that prints a new one-time address
   * for this node (cli/appUrl.ts), as its starters print it.
   */
  get appUrlCommandLine(): string {
    return appUrlCommandLine(this.options.dataDir, this.version.name);
  }

  /**
   * A one-time code for `/app/?code=…` (api/appCodes.ts), also before the node listens.
   * @param lifetimeMs how long it works; null (default): until it is used or the node stops.
   */
  issueAppCode(lifetimeMs: number | null = null): string {
    return this.#appToken.codes.issue(lifetimeMs).code;
  }

  /**
   * Validates and stores a block from outside the block database (a miner's
   * solution, a peer's block) as `blocks.insertBlock` does, with its
   * execution run in an execution worker first, so that the node's event
   * loop stays free while it executes (exec/insertExecutedAhead.ts).
   * @throws the coded error of the first rule the block breaks (as `blocks.insertBlock`).
   */
  insertBlock(block: Block): Promise<InsertResult> {
    return insertExecutedAhead(this, block);
  }

  /**
   * Listens on the configured host and port (port 0: any free port);
   * returns the base URL. Calling it again returns the same URL.
   * @throws {ApiError} API_LISTEN_FAILED (address in use, no permission, bad host).
   */
  async start(): Promise<string> {
    if (this.#port !== undefined) return this.baseUrl;
    const { host, port } = this.options;
    try {
      await this.server.listen({ host, port });
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      const inUse = isAddressInUse(e);
      throw new ApiError(
        { code: ApiErrorCode.ListenFailed, host, port, reason, inUse, flag: "port" },
        inUse
          ? `cannot listen on ${host}:${port}: another program (another Weft node?) uses port ${port}`
          : `cannot listen on ${host}:${port}: ${reason}`,
        { cause: e },
      );
    }
    const address = this.server.server.address();
    this.#port = typeof address === "object" && address !== null ? address.port : port;
    this.#log.info("node listening", { baseUrl: this.baseUrl, network: this.version.name });
    // For `weft app-url` (cli/appUrl.ts): where this computer reaches the node, while it listens.
    const addressFile = this.appAddressFile;
    writePrivateFile(addressFile, `${this.localOrigin}\n`);
    this.lifecycle.add("appAddressFile", { close: () => rmSync(addressFile, { force: true }) });
    await this.#startPeers();
    if (this.execution instanceof WorkerExecution) this.execution.warm();
    if (this.options.mining.onDemand) {
      try {
        await this.miner.setOnDemand(true);
      } catch (e) {
        if (!isNodeError(e)) throw e;
        this.#log.warn("mine on demand did not start", { code: e.code, error: e.message });
      }
    }
    // Automatic backups run while the node runs; a time missed while it was stopped runs now.
    this.appBackups.startSchedule();
    // The dapp signing API listens when the wallet's setting says so (a busy port is logged).
    await this.dappSigning.start();
    if (this.options.mining.enabled) {
      // A miner that cannot start (no reward account, a thread failed) leaves the node running.
      try {
        await this.miner.start();
      } catch (e) {
        if (!isNodeError(e)) throw e;
        this.#log.warn("the built-in miner did not start", { code: e.code, error: e.message });
      }
    }
    return this.baseUrl;
  }

  /**
   * Starts the peer network: listens on `p2p.port` too when it is set apart
   * from the API's port (the same routes), and publishes that address.
   */
  async #startPeers(): Promise<void> {
    const { host } = this.options;
    let port = this.#port as number;
    let fingerprint: string | undefined;
    const p2pPort = this.options.p2p.port;
    if (p2pPort !== undefined && p2pPort !== port) {
      const route = (req: IncomingMessage, res: ServerResponse) => {
        this.server.routing(req, res);
      };
      // TLS: the node's self-signed certificate; its fingerprint names it to peers (docs/p2p.md).
      const tls = this.options.p2p.tls
        ? await loadOrCreatePeerCertificate(tlsDir(this.options))
        : undefined;
      // The same bound on how long a request may take to arrive as the API's port.
      const timeouts = requestTimeouts(this.server.server.requestTimeout);
      const server =
        tls === undefined
          ? createServer(timeouts, route)
          : createHttpsServer({ ...timeouts, cert: tls.certificatePem, key: tls.keyPem }, route);
      fingerprint = tls?.fingerprint;
      await new Promise<void>((resolve, reject) => {
        server.once("error", (e) => {
          reject(
            new ApiError(
              {
                code: ApiErrorCode.ListenFailed,
                host,
                port: p2pPort,
                reason: e.message,
                inUse: isAddressInUse(e),
                flag: "p2p-port",
              },
              isAddressInUse(e)
                ? `cannot listen on ${host}:${p2pPort} (p2p.port): another program uses port ${p2pPort}`
                : `cannot listen on ${host}:${p2pPort} (p2p.port): ${e.message}`,
              { cause: e },
            ),
          );
        });
        server.listen(p2pPort, host, () => resolve());
      });
      this.lifecycle.add("p2pServer", {
        stop: async () => {
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
        },
      });
      const address = server.address();
      port = typeof address === "object" && address !== null ? address.port : p2pPort;
    }
    if (this.options.p2p.tls && fingerprint === undefined) {
      throw new ApiError(
        { code: ApiErrorCode.ListenFailed, host, port, reason: "p2p.tls on the API's port" },
        `p2p.tls needs p2p.port apart from the API's port ${port}: the API's port stays plain HTTP`,
      );
    }
    // A wildcard address names no host a peer can reach: loopback, or the first allowed name.
    const wildcard = host === "0.0.0.0" || host === "::";
    const hostname = wildcard ? (this.options.allowedHosts[0] ?? "127.0.0.1") : host;
    const self =
      fingerprint === undefined ? { hostname, port } : { hostname, port, id: fingerprint };
    if (fingerprint !== undefined) {
      this.#log.info(`p2p: peers reach this node over TLS at ${peerKey(self)}`);
    }
    this.p2p.start(self);
  }

  /**
   * Unwinds the lifecycle: the peer network, the miners and the requests that wait stop,
   * then the servers, threads and databases close, in reverse start order
   * (`lifecycle.shutdownOrder()`), and the data folder's lock is released. Idempotent.
   */
  close(): Promise<void> {
    const closing =
      this.#closing ??
      this.lifecycle.unwind().finally(() => {
        this.#log.info("node closed", { network: this.version.name });
      });
    this.#closing = closing;
    return closing;
  }
}

/**
 * Creates a node of the configured network and, unless `listen: false`,
 * starts it (the desktop shell's contract: resolves once the node listens).
 * @throws {ConfigError} CONFIG_BAD_VALUE for a bad option (naming the key).
 * @throws {BackupError} BACKUP_DATA_IN_USE when another running node (or a
 *   restore) holds the data folder's lock (`dataDir/<network>/node.lock`).
 * @throws {StoreError} when blocks.sqlite cannot be opened or belongs to another network.
 * @throws {ApiError} API_LISTEN_FAILED when the address cannot be used.
 */
export async function createNode(options: CreateNodeOptions): Promise<WeftNode> {
  const node = await WeftNode.open(options);
  if (options.listen === false) return node;
  try {
    await node.start();
  } catch (e) {
    await node.close();
    throw e;
  }
  return node;
}
