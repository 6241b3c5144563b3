/**
 * `GET/PUT /app/api/wallet/pending`: the wallet's pending cross-chain transfers, its history
 * and its multi-signature accounts, `<dataDir>/<network>/wallet/pending.json`, with the same
 * guard, atomic write and answers.
 *
 * `GET/PUT /app/api/wallet/keystore`: the wallet's encrypted keystore, stored by the node as
 * an opaque file `<dataDir>/<network>/wallet/keystore.json` (docs/wallet.md). The UI encrypts
 * and decrypts it; the node only checks its shape (the JSON schema below, the same limits as
 * the renderer's parser `renderer/src/features/wallet/keystore/keystoreFormat.ts`), refuses
 * bodies over 1 MiB (413), and writes it atomically with mode 0600 (store/atomicFile.ts).
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
import { AppError, AppErrorCode } from "../errors.ts";
import { registerAppRoute } from "../registerAppRoute.ts";
import { type RouteContext, sendJson } from "../routeContext.ts";

/** Largest keystore body: 1 MiB. */
export const KEYSTORE_BODY_LIMIT = 1024 * 1024;

/** The keystore file's name inside the network's `wallet/` folder. */
export const KEYSTORE_FILE = "keystore.json";

const HEX = (bytes: number) => `^[0-9a-f]{${bytes * 2}}$`;

/** The keystore file's shape (format version 1; docs/wallet.md "Keystore format"). */
export const keystoreSchema = {
  type: "object",
  additionalProperties: false,
  required: ["format", "version", "public", "kdf", "cipher", "ciphertext"],
  properties: {
    format: { const: "weft-keystore" },
    version: { const: 1 },
    public: {
      type: "object",
      additionalProperties: false,
      required: ["keys", "settings"],
      properties: {
        keys: {
          type: "array",
          maxItems: 1000,
          items: {
            type: "object",
            additionalProperties: false,
            required: ["id", "publicKey", "label", "source"],
            properties: {
              id: { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$" },
              publicKey: { type: "string", pattern: HEX(32) },
              label: { type: "string", maxLength: 100 },
              source: { enum: ["phrase", "imported", "test-account"] },
              index: { type: "integer", minimum: 0, maximum: 0x7fff_ffff },
            },
          },
        },
        settings: {
          type: "object",
          additionalProperties: false,
          required: ["watchOnly", "idleLockMinutes"],
          properties: {
            watchOnly: {
              type: "array",
              maxItems: 1000,
              items: { type: "string", minLength: 3, maxLength: 256 },
            },
            idleLockMinutes: { type: "integer", minimum: 1, maximum: 1440 },
          },
        },
      },
    },
    kdf: {
      type: "object",
      additionalProperties: false,
      required: ["name", "N", "r", "p", "dkLen", "salt"],
      properties: {
        name: { const: "scrypt" },
        N: { enum: [2 ** 14, 2 ** 15, 2 ** 16, 2 ** 17, 2 ** 18, 2 ** 19, 2 ** 20] },
        r: { const: 8 },
        p: { enum: [1, 2, 3, 4] },
        dkLen: { const: 32 },
        salt: { type: "string", pattern: HEX(16) },
      },
    },
    cipher: {
      type: "object",
      additionalProperties: false,
      required: ["name", "nonce"],
      properties: {
        name: { const: "xchacha20-poly1305" },
        nonce: { type: "string", pattern: HEX(24) },
      },
    },
    ciphertext: { type: "string", maxLength: 600_000, pattern: "^[A-Za-z0-9+/]+={0,2}$" },
  },
} as const;

/** The pending cross-chain transfers' file name inside the network's `wallet/` folder. */
export const PENDING_FILE = "pending.json";

/**
 * Largest pending-transfers body: 2 MiB (200 transfers with their continuation and proof, 500
 * history entries, 100 multi-signature accounts).
 */
export const PENDING_BODY_LIMIT = 2 * 1024 * 1024;

const NULLABLE_TEXT = { type: ["string", "null"], maxLength: 300 } as const;
const PHASE = { enum: ["sent", "proof", "finishing", "done", "attention"] } as const;
const CHAIN = { type: "integer", minimum: 0, maximum: 999 } as const;

const NULLABLE_DECIMAL = {
  type: ["string", "null"],
  pattern: "^\\d{1,30}(\\.\\d{1,12})?$",
} as const;
const NULLABLE_NATURAL = { type: ["integer", "null"], minimum: 0 } as const;

/** One entry of the wallet's history (docs/wallet.md "History"; nothing secret). */
const historyEntrySchema = {
  type: "object",
  additionalProperties: false,
  required: [
    "requestKey",
    "kind",
    "status",
    "chain",
    "targetChain",
    "sender",
    "receiver",
    "amount",
    "gasPrice",
    "fee",
    "blockHeight",
    "message",
    "expiresAt",
    "createdAt",
  ],
  properties: {
    requestKey: { type: "string", pattern: "^[A-Za-z0-9_-]{43}$" },
    kind: { enum: ["transfer", "crosschain", "multisig", "create-account", "signed", "added"] },
    status: { enum: ["prepared", "pending", "succeeded", "failed", "expired"] },
    chain: CHAIN,
    targetChain: { anyOf: [CHAIN, { type: "null" }] },
    sender: NULLABLE_TEXT,
    receiver: NULLABLE_TEXT,
    amount: NULLABLE_DECIMAL,
    gasPrice: NULLABLE_DECIMAL,
    fee: NULLABLE_DECIMAL,
    blockHeight: NULLABLE_NATURAL,
    message: { type: ["string", "null"], maxLength: 2000 },
    expiresAt: NULLABLE_NATURAL,
    createdAt: { type: "integer", minimum: 0 },
  },
} as const;

/** A multi-signature account the wallet created or follows (docs/wallet.md). */
const multisigAccountSchema = {
  type: "object",
  additionalProperties: false,
  required: ["account", "keys", "pred", "chains", "createdAt"],
  properties: {
    account: { type: "string", minLength: 3, maxLength: 256 },
    keys: {
      type: "array",
      minItems: 1,
      maxItems: 10,
      items: { type: "string", pattern: HEX(32) },
    },
    pred: { enum: ["keys-all", "keys-any", "keys-2"] },
    chains: { type: "array", maxItems: 1000, items: CHAIN },
    createdAt: { type: "integer", minimum: 0 },
  },
} as const;

/**
 * The pending cross-chain transfers' file (docs/wallet.md "Cross-chain transfers"; the
 * renderer's parser is `renderer/src/features/wallet/crosschain/pendingFile.ts`), with the
 * wallet's history and multi-signature accounts (optional: older files have neither).
 */
export const pendingSchema = {
  type: "object",
  additionalProperties: false,
  required: ["format", "version", "transfers"],
  properties: {
    format: { const: "weft-pending" },
    version: { const: 1 },
    transfers: {
      type: "array",
      maxItems: 200,
      items: {
        type: "object",
        additionalProperties: false,
        required: [
          "requestKey",
          "sourceChain",
          "targetChain",
          "sender",
          "receiver",
          "amount",
          "phase",
          "reason",
          "retryPhase",
          "continuation",
          "continuationSent",
          "createdAt",
        ],
        properties: {
          requestKey: { type: "string", pattern: "^[A-Za-z0-9_-]{43}$" },
          sourceChain: CHAIN,
          targetChain: CHAIN,
          sender: NULLABLE_TEXT,
          receiver: NULLABLE_TEXT,
          amount: { type: ["string", "null"], maxLength: 60 },
          phase: PHASE,
          reason: { type: ["string", "null"], maxLength: 2000 },
          retryPhase: { anyOf: [PHASE, { type: "null" }] },
          continuation: {
            anyOf: [
              { type: "null" },
              {
                type: "object",
                additionalProperties: false,
                required: ["cmd", "hash", "sigs"],
                properties: {
                  cmd: { type: "string", maxLength: 100_000 },
                  hash: { type: "string", pattern: "^[A-Za-z0-9_-]{43}$" },
                  sigs: {
                    type: "array",
                    maxItems: 1,
                    items: {
                      type: "object",
                      additionalProperties: false,
                      required: ["sig"],
                      properties: { sig: { type: "string", pattern: HEX(64) } },
                    },
                  },
                },
              },
            ],
          },
          continuationSent: { type: "boolean" },
          createdAt: { type: "integer", minimum: 0 },
        },
      },
    },
    history: { type: "array", maxItems: 500, items: historyEntrySchema },
    multisig: { type: "array", maxItems: 100, items: multisigAccountSchema },
  },
} as const;

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
    bodySchema: keystoreSchema,
    bodyLimit: KEYSTORE_BODY_LIMIT,
    handler: (request, reply) => {
      writeFileAtomic(file, `${JSON.stringify(request.body)}\n`);
      sendJson(reply, { saved: true });
    },
  });
  // Replacing the wallet, keeping the stored keystore aside.
  registerAppRoute(scope, appRoutes.wallet.replaceKeystore, {
    bodySchema: keystoreSchema,
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
    bodySchema: pendingSchema,
    bodyLimit: PENDING_BODY_LIMIT,
    handler: (request, reply) => {
      writeFileAtomic(pendingFile, `${JSON.stringify(request.body)}\n`);
      sendJson(reply, { saved: true });
    },
  });
}
