/**
 * Every route of the app's private API (`/app/api/*`), once, grouped by feature (issue 37): its
 * method, route, query parameters, body type and timeout (`appRoute.ts`), and the types of the
 * bodies the node and the UI both use. The node registers each route from its entry
 * (src-node/api/registerAppRoute.ts), the UI builds its calls from the same entry and the
 * parser of the answer (renderer/src/app/appEndpoints.ts), and
 * test/renderer/endpointContract.test.ts checks a real node serves exactly these routes.
 *
 * Browser-safe: the renderer imports it.
 * @module
 */
import type { KeystoreFile } from "../walletFiles/keystoreFile.ts";
import type { PendingFile } from "../walletFiles/pendingFile.ts";
import { type AnyAppRoute, appRoute, bodyType } from "./appRoute.ts";

/** A body with nothing to say, and nothing else accepted: `{}`. */
export type EmptyBody = Record<string, never>;

/** `POST /app/api/mining`: any subset of the fields. */
export type MinerChange = {
  readonly enabled?: boolean;
  readonly threads?: number;
  readonly account?: string;
  /** The account's public keys (hex); a `k:<key>` account needs none. Only with `account`. */
  readonly publicKeys?: readonly string[];
  /** The account's guard predicate (`keys-all` when absent). Only with `account`. */
  readonly predicate?: string;
  readonly onDemand?: boolean;
};

/** `POST /app/api/peers`: `HOST:PORT`. */
export type PeerAddress = { readonly address: string };

/** `POST /app/api/private/trusted` and `…/check`: an entity and its public key (base64url). */
export type EntityPin = { readonly name: string; readonly publicKey: string };

export type BackupEvery = "off" | "daily" | "weekly";

/** When the app backs up by itself (docs/backup.md "Automatic backups"). */
export type BackupSchedule = {
  readonly every: BackupEvery;
  /** Hour of the day, 0–23, local time. */
  readonly hour: number;
  /** Day of the week for `weekly`, 0 = Sunday … 6 = Saturday. */
  readonly weekday: number;
  /** Finished backups kept, 1–1000. */
  readonly keep: number;
};

/** `POST /app/api/backup/settings`: any of the folder (null: the default), state, schedule. */
export type BackupSettingsPatch = {
  readonly directory?: string | null;
  readonly includeState?: boolean;
  readonly schedule?: BackupSchedule;
};

/** A listed backup (`id`) or any folder (`folder`, absolute): exactly one. */
export type BackupWhich =
  | { readonly id: string; readonly folder?: never }
  | { readonly folder: string; readonly id?: never };

/** `POST /app/api/wallet/dapp-signing`: the dapp signing API on or off, and its port. */
export type DappSigningSettings = { readonly enabled: boolean; readonly port: number };

/** `POST /app/api/wallet/sign-requests/:id`: the user's answer (docs/dapp-signing.md). */
export type SignerAnswerBody =
  | { readonly answer: "refused" }
  | { readonly answer: "signed"; readonly cmd?: string; readonly sigs: readonly unknown[] };

/** Checking a backup reads every file back: large backups take a while. */
const SLOW_BACKUP_MS = 300_000;

export const appRoutes = {
  /** `weft app-url`'s one-time code that opens the app in a browser (api/appCodes.ts). */
  app: {
    code: appRoute({ method: "POST", route: "/app/api/app-code", body: bodyType<EmptyBody>() }),
  },
  /** The built-in miner (docs/mining.md). */
  mining: {
    status: appRoute({ method: "GET", route: "/app/api/mining" }),
    change: appRoute({ method: "POST", route: "/app/api/mining", body: bodyType<MinerChange>() }),
    history: appRoute({ method: "GET", route: "/app/api/mining/history" }),
  },
  /** The Node page: status, log, restart (docs/desktop.md §3.3, §3.4). */
  node: {
    status: appRoute({ method: "GET", route: "/app/api/node/status" }),
    log: appRoute({ method: "GET", route: "/app/api/node/log", query: ["level", "limit"] }),
    restartStatus: appRoute({ method: "GET", route: "/app/api/node/restart" }),
    restart: appRoute({
      method: "POST",
      route: "/app/api/node/restart",
      body: bodyType<EmptyBody>(),
    }),
  },
  /** The Node page's peers (docs/p2p.md). */
  peers: {
    list: appRoute({ method: "GET", route: "/app/api/peers" }),
    add: appRoute({ method: "POST", route: "/app/api/peers", body: bodyType<PeerAddress>() }),
    remove: appRoute({ method: "DELETE", route: "/app/api/peers/:address" }),
  },
  /** The Node page's private entities and their pins (docs/private.md). */
  private: {
    entities: appRoute({ method: "GET", route: "/app/api/private" }),
    checkPin: appRoute({
      method: "POST",
      route: "/app/api/private/trusted/check",
      body: bodyType<EntityPin>(),
    }),
    pin: appRoute({
      method: "POST",
      route: "/app/api/private/trusted",
      body: bodyType<EntityPin>(),
    }),
    unpin: appRoute({ method: "DELETE", route: "/app/api/private/trusted/:name" }),
  },
  /** The explorer's index (docs/explorer-api.md); every route a GET. */
  explorer: {
    status: appRoute({ method: "GET", route: "/app/api/explorer/status" }),
    blocks: appRoute({
      method: "GET",
      route: "/app/api/explorer/blocks",
      query: ["chain", "maxheight", "limit", "next"],
    }),
    block: appRoute({ method: "GET", route: "/app/api/explorer/block/:hash" }),
    transaction: appRoute({ method: "GET", route: "/app/api/explorer/tx/:requestKey" }),
    account: appRoute({ method: "GET", route: "/app/api/explorer/account/:account" }),
    transfers: appRoute({
      method: "GET",
      route: "/app/api/explorer/account/:account/transfers",
      query: ["chain", "limit", "next"],
    }),
    module: appRoute({ method: "GET", route: "/app/api/explorer/module/:name" }),
    search: appRoute({ method: "GET", route: "/app/api/explorer/search", query: ["q"] }),
  },
  /** The backup page (docs/backup.md "The app's backups", docs/desktop.md §3.5). */
  backup: {
    overview: appRoute({ method: "GET", route: "/app/api/backup" }),
    settings: appRoute({
      method: "POST",
      route: "/app/api/backup/settings",
      body: bodyType<BackupSettingsPatch>(),
    }),
    start: appRoute({
      method: "POST",
      route: "/app/api/backup/start",
      body: bodyType<{ readonly includeState: boolean }>(),
    }),
    job: appRoute({ method: "GET", route: "/app/api/backup/jobs/:id" }),
    list: appRoute({ method: "GET", route: "/app/api/backup/list" }),
    remove: appRoute({
      method: "POST",
      route: "/app/api/backup/delete",
      body: bodyType<{ readonly id: string }>(),
    }),
    check: appRoute({
      method: "POST",
      route: "/app/api/backup/check",
      body: bodyType<BackupWhich>(),
      timeoutMs: SLOW_BACKUP_MS,
    }),
    restore: appRoute({
      method: "POST",
      route: "/app/api/backup/restore",
      body: bodyType<BackupWhich>(),
      timeoutMs: SLOW_BACKUP_MS,
    }),
  },
  /** The wallet's files and the dapp signing API's page side (docs/wallet.md, docs/dapp-signing.md). */
  wallet: {
    keystore: appRoute({ method: "GET", route: "/app/api/wallet/keystore" }),
    saveKeystore: appRoute({
      method: "PUT",
      route: "/app/api/wallet/keystore",
      body: bodyType<KeystoreFile>(),
    }),
    replaceKeystore: appRoute({
      method: "POST",
      route: "/app/api/wallet/keystore/replace",
      body: bodyType<KeystoreFile>(),
    }),
    pending: appRoute({ method: "GET", route: "/app/api/wallet/pending" }),
    savePending: appRoute({
      method: "PUT",
      route: "/app/api/wallet/pending",
      body: bodyType<PendingFile>(),
    }),
    dappSigning: appRoute({ method: "GET", route: "/app/api/wallet/dapp-signing" }),
    setDappSigning: appRoute({
      method: "POST",
      route: "/app/api/wallet/dapp-signing",
      body: bodyType<DappSigningSettings>(),
    }),
    signRequests: appRoute({
      method: "GET",
      route: "/app/api/wallet/sign-requests",
      query: ["since"],
    }),
    answerSignRequest: appRoute({
      method: "POST",
      route: "/app/api/wallet/sign-requests/:id",
      body: bodyType<SignerAnswerBody>(),
    }),
  },
} as const;

/** Every entry of {@link appRoutes}, once. */
export const APP_ROUTES: readonly AnyAppRoute[] = Object.values(appRoutes).flatMap(
  (group): AnyAppRoute[] => Object.values(group),
);
