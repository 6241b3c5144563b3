/**
 * `GET/PUT /app/api/wallet/pending`: the wallet's pending cross-chain transfers, its history
 * and its multi-signature accounts, `<dataDir>/<network>/wallet/pending.json`, with the same
 * guard, atomic write and answers, checked with the renderer's parser too
 * (walletFiles/pendingFile.ts).
 *
 * `GET/PUT /app/api/wallet/keystore`: the wallet's encrypted keystore, stored by the node as
 * an opaque file `<dataDir>/<network>/wallet/keystore.json` (docs/wallet.md). The UI encrypts
 * and decrypts it; the node only checks its shape, with the parser the renderer reads it with
 * (walletFiles/keystoreFile.ts, through api/parsedBody.ts: 400 naming the bad field), refuses
 * bodies over 1 MiB (413), and writes what the parser read atomically with mode 0600
 * (store/atomicFile.ts).
 * Registered inside the app API plugin (appApi.ts), which guards it (loopback, Host, Origin,
 * app token, JSON only, no CORS). Nothing of the body is logged.
 *
 * GET answers `{"keystore": <file> | null}` (null before the first wallet: a 404 would be a
 * console error in the page on every first run); PUT answers `{"saved": true}`.
 *
 * `POST /app/api/wallet/keystore/replace`: another wallet in place of this one (restored from
 * a phrase after a forgotten password, or a new one), the same body as PUT; the stored file
 * is first copied aside as `wallet/keystore-replaced-<UTC time>.json` (store/keepAside.ts:
 * kept, never deleted, and in the next backup with the wallet's other files), then replaced
 * atomically. Answers `{"replaced": true, "keptAs": "wallet/keystore-replaced-….json" | null}`
 * (null: there was no wallet). The wallet's `pending.json` (pending cross-chain transfers,
 * history, multi-signature accounts) stays: none of it is secret, a transfer in flight needs
 * no key to finish, and the usual case restores the same phrase.
 * @module
 */
import { basename, join } from "node:path";
import type { FastifyInstance } from "fastify";
import { appRoutes } from "../../appContract/appRoutes.ts";
import { readFileIfExists, writeFileAtomic } from "../../store/atomicFile.ts";
import { keepCopyAside } from "../../store/keepAside.ts";
import { parseKeystoreFile } from "../../walletFiles/keystoreFile.ts";
import { parsePendingFile } from "../../walletFiles/pendingFile.ts";
import { AppError, AppErrorCode } from "../errors.ts";
import { registerAppRoute } from "../registerAppRoute.ts";
import { type RouteContext, sendJson } from "../routeContext.ts";

/** Largest keystore body: 1 MiB. */
export const KEYSTORE_BODY_LIMIT = 1024 * 1024;

/** The keystore file's name inside the network's `wallet/` folder. */
export const KEYSTORE_FILE = "keystore.json";

/** The pending cross-chain transfers' file name inside the network's `wallet/` folder. */
export const PENDING_FILE = "pending.json";

/**
 * Largest pending-transfers body: 2 MiB (200 transfers with their continuation and proof, 500
 * history entries, 100 multi-signature accounts).
 */
export const PENDING_BODY_LIMIT = 2 * 1024 * 1024;

/** The routes, for the app API plugin (buildServer.ts); absent without a wallet folder. */
export function registerAppWalletRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  const dir = ctx.node.walletDir;
  if (dir === undefined) return;
  const file = join(dir, KEYSTORE_FILE);
  registerAppRoute(scope, appRoutes.wallet.keystore, {
    handler: (_request, reply) => {
      const text = readFileIfExists(file);
      if (text === undefined) {
        sendJson(reply, { keystore: null });
        return;
      }
      let keystore: unknown;
      try {
        keystore = JSON.parse(text);
      } catch {
        throw new AppError(
          { code: AppErrorCode.KeystoreUnreadable, file: `wallet/${KEYSTORE_FILE}` },
          `wallet/${KEYSTORE_FILE} in the node's data folder is not JSON: restore it from a backup`,
        );
      }
      sendJson(reply, { keystore });
    },
  });
  registerAppRoute(scope, appRoutes.wallet.saveKeystore, {
    bodyParser: parseKeystoreFile,
    bodyLimit: KEYSTORE_BODY_LIMIT,
    handler: (request, reply) => {
      writeFileAtomic(file, `${JSON.stringify(request.body)}\n`);
      sendJson(reply, { saved: true });
    },
  });
  // Replacing the wallet, keeping the stored keystore aside.
  registerAppRoute(scope, appRoutes.wallet.replaceKeystore, {
    bodyParser: parseKeystoreFile,
    bodyLimit: KEYSTORE_BODY_LIMIT,
    handler: (request, reply) => {
      const kept = keepCopyAside(file, Date.now());
      writeFileAtomic(file, `${JSON.stringify(request.body)}\n`);
      ctx.node.log?.info("wallet replaced", { keptAs: kept === undefined ? null : basename(kept) });
      sendJson(reply, {
        replaced: true,
        keptAs: kept === undefined ? null : `wallet/${basename(kept)}`,
      });
    },
  });
  const pendingFile = join(dir, PENDING_FILE);
  registerAppRoute(scope, appRoutes.wallet.pending, {
    handler: (_request, reply) => {
      const text = readFileIfExists(pendingFile);
      let pending: unknown = null;
      if (text !== undefined) {
        try {
          pending = JSON.parse(text);
        } catch {
          throw new AppError(
            { code: AppErrorCode.KeystoreUnreadable, file: `wallet/${PENDING_FILE}` },
            `wallet/${PENDING_FILE} in the node's data folder is not JSON: remove it (only the list of pending cross-chain transfers is lost; "Finish a transfer" finishes any of them by request key)`,
          );
        }
      }
      sendJson(reply, { pending });
    },
  });
  registerAppRoute(scope, appRoutes.wallet.savePending, {
    bodyParser: parsePendingFile,
    bodyLimit: PENDING_BODY_LIMIT,
    handler: (request, reply) => {
      writeFileAtomic(pendingFile, `${JSON.stringify(request.body)}\n`);
      sendJson(reply, { saved: true });
    },
  });
}
