/**
 * What the HTTP API needs from the node: the network, the services it
 * adapts, and facts about the release. Later areas (exec, mempool, mining,
 * backup) add their services here; node.ts supplies them.
 * @module
 */
import type { AppBackups } from "../backup/appBackups.ts";
import type { BackupService } from "../backup/backupService.ts";
import type { NetworkVersion } from "../chain/networkVersion.ts";
import type { Explorer } from "../index/explorer.ts";
import type { CommandService } from "../mempool/commandService.ts";
import type { BuiltInMiner } from "../mining/builtInMiner.ts";
import type { MiningService } from "../mining/miningService.ts";
import type { UpdateStreams } from "../mining/updateStreams.ts";
import type { PeerNetwork } from "../p2p/peerNetwork.ts";
import type { PrivateService } from "../p2p/private/privateService.ts";
import type { CatchUpStatus } from "../runtime/catchUpStatus.ts";
import type { NodeLog, RecentLog } from "../runtime/recentLog.ts";
import type { BlockDb } from "../store/blockDb.ts";
import type { AppToken } from "./appToken.ts";
import type { DappSigning } from "./dappSigning/dappSigning.ts";
import { API_VERSION } from "./nodeInfo.ts";
import type { NodeRestarter } from "./nodeRestart.ts";

export type ApiLog = NodeLog;

export type ApiServices = {
  readonly version: NetworkVersion;
  readonly blocks: BlockDb;
  /** The node's release (`nodePackageVersion`, `x-ledger-node-version`). */
  readonly packageVersion: string;
  /** The node's clock, µs since the UNIX epoch (`x-server-timestamp`; default: the system clock). */
  readonly clock?: (() => number) | undefined;
  /** ISO 8601 (`nodeServiceDate`). */
  readonly serviceDate: string;
  readonly log?: ApiLog | undefined;
  /** The mining API's service and update streams; absent when the mining API is disabled (404). */
  readonly miningApi?:
    | { readonly service: MiningService; readonly streams: UpdateStreams }
    | undefined;
  /** The backup jobs; absent when the backup API is disabled (its routes answer 404). */
  readonly backup?: BackupService | undefined;
  /** The contract command endpoints' service (`/pact/api/v1/…`); absent: those routes are not served. */
  readonly commands?: CommandService | undefined;
  /** The explorer's index answers (`/app/api/explorer/…`); absent: those routes are not served. */
  readonly explorer?: Explorer | undefined;
  /** The built-in miner, controlled through the app route `/app/api/mining`. */
  readonly miner?: BuiltInMiner | undefined;
  /** The peer network (peer-only routes, `/app/api/peers`); absent: not served. */
  readonly p2p?: PeerNetwork | undefined;
  /** `/private` between addressed nodes and its peer-only routes (docs/private.md); absent: `/private` is refused. */
  readonly private?: PrivateService | undefined;
  /** The launch's app token, needed by `/app/api/*` (appToken.ts; default: a fresh one, codes on, this computer only). */
  readonly appToken?: AppToken | undefined;
  /**
   * `dataDir/<network>/wallet`: where `/app/api/wallet/keystore` keeps the wallet's encrypted
   * keystore (absent: those routes are not served).
   */
  readonly walletDir?: string | undefined;
  /** The built UI served under `/app/` (default `dist/renderer`, rendererDir.ts). */
  readonly rendererDir?: string | undefined;
  /**
   * `http://HOST:PORT` of the node once it listens, else undefined
   * (`/app/config.json` then names the origin of the request's Host).
   */
  readonly origin?: (() => string | undefined) | undefined;
  /** What the Node page's app routes show (routes/appNodeRoutes.ts); absent: not served. */
  readonly nodePage?:
    | {
        readonly recentLog: RecentLog;
        readonly catchUp: CatchUpStatus;
        readonly dataDir: string;
        /** The host's log file, when it writes one (the desktop's). */
        readonly logFile?: string | undefined;
      }
    | undefined;
  /** New for every start of the node (`GET /app/api/node/restart`: the UI sees a restart happen). */
  readonly launchId?: string | undefined;
  /** The host's restart (nodeRestart.ts); absent: the restart routes answer APP_RESTART_UNAVAILABLE. */
  readonly restart?: NodeRestarter | undefined;
  /** The data folder of the node's network, `dataDir/<network>` (app routes that keep files there). */
  readonly networkDir?: string | undefined;
  /** The node's data folder (a restore writes into it). */
  readonly dataDir?: string | undefined;
  /** The app's backups (`/app/api/backup/*`); absent: those routes are not served. */
  readonly appBackups?: AppBackups | undefined;
  /** The dapp signing API (`/app/api/wallet/dapp-signing`, `…/sign-requests`); absent: not served. */
  readonly dappSigning?: DappSigning | undefined;
};

/** `/ledger/{apiVersion}/{network}`: the path of `{base_url}`. */
export function basePath(version: NetworkVersion): string {
  return `/ledger/${API_VERSION}/${version.name}`;
}
