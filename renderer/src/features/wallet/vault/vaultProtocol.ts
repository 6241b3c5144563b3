/**
 * The messages between the page and the vault worker (vaultWorker.ts), parsed on both sides:
 * requests carry an `id` the answer repeats; the worker also sends `locked` events (idle
 * time-out). Answers carry public data only, except `generate` and `revealPhrase` (the words
 * the page shows once) — never a secret key.
 * @module
 */
import type { KeySource, KeystoreFile } from "../../../../../src-node/walletFiles/keystoreFile.ts";
import { parseKeystoreFile } from "../../../../../src-node/walletFiles/keystoreFile.ts";
import {
  array,
  type Decoded,
  decode,
  natural,
  record,
  reject,
  string,
} from "../../../api/decode.ts";

export type VaultRequest =
  | { readonly op: "generate"; readonly words: 12 | 24 }
  | {
      readonly op: "confirmWords";
      readonly answers: readonly { readonly position: number; readonly word: string }[];
    }
  | {
      readonly op: "create";
      readonly password: string;
      /** `null`: the phrase of the last `generate`; else a typed phrase (restore). */
      readonly phrase: string | null;
      readonly idleLockMinutes: number;
    }
  | { readonly op: "unlock"; readonly keystore: KeystoreFile; readonly password: string }
  | { readonly op: "lock" }
  | { readonly op: "activity" }
  | { readonly op: "setIdle"; readonly minutes: number }
  | { readonly op: "sign"; readonly keyId: string; readonly requestKey: string }
  | { readonly op: "phraseKeys"; readonly from: number; readonly count: number }
  | {
      readonly op: "addPhraseKeys";
      readonly keystore: KeystoreFile;
      readonly indices: readonly number[];
    }
  | {
      readonly op: "importKey";
      readonly keystore: KeystoreFile;
      readonly keyFile: string;
      readonly publicKey: string;
      readonly secretKey: string;
      readonly label: string;
      readonly source: Exclude<KeySource, "phrase">;
    }
  | { readonly op: "removeKey"; readonly keystore: KeystoreFile; readonly keyId: string }
  | {
      readonly op: "changePassword";
      readonly keystore: KeystoreFile;
      readonly oldPassword: string;
      readonly newPassword: string;
    }
  | { readonly op: "revealPhrase"; readonly keystore: KeystoreFile; readonly password: string };

export type VaultOp = VaultRequest["op"];

/** What each request resolves to. */
export type VaultResults = {
  generate: { readonly words: readonly string[] };
  confirmWords: { readonly correct: boolean };
  create: { readonly keystore: KeystoreFile };
  unlock: Record<string, never>;
  lock: Record<string, never>;
  activity: Record<string, never>;
  setIdle: Record<string, never>;
  sign: { readonly signature: string };
  phraseKeys: { readonly keys: readonly { readonly index: number; readonly publicKey: string }[] };
  addPhraseKeys: { readonly keystore: KeystoreFile };
  importKey: { readonly keystore: KeystoreFile };
  removeKey: { readonly keystore: KeystoreFile };
  changePassword: { readonly keystore: KeystoreFile };
  revealPhrase: { readonly words: readonly string[] };
};

/** The vault's error codes (docs/errors.md "Wallet vault"). */
export const VaultErrorCode = {
  Locked: "WALLET_LOCKED",
  WrongPassword: "WALLET_WRONG_PASSWORD",
  Throttled: "WALLET_THROTTLED",
  UnknownKey: "WALLET_UNKNOWN_KEY",
  BadPhrase: "WALLET_BAD_PHRASE",
  BadKey: "WALLET_BAD_KEY",
  DuplicateKey: "WALLET_DUPLICATE_KEY",
  NoPhrase: "WALLET_NO_PHRASE",
  KeyMismatch: "WALLET_KEY_MISMATCH",
  BadRequest: "WALLET_BAD_REQUEST",
} as const;
export type VaultErrorCodeValue = (typeof VaultErrorCode)[keyof typeof VaultErrorCode];

export type VaultFailure = {
  readonly code: VaultErrorCodeValue;
  readonly message: string;
  /** WALLET_THROTTLED: when the next attempt is allowed. */
  readonly retryAfterMs?: number | undefined;
};

export type VaultAnswer =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: VaultFailure };

export type VaultEvent = { readonly event: "locked"; readonly reason: "idle" | "request" };

export type VaultMessage = VaultAnswer | VaultEvent;

const PHRASE_MAX = 1000;
const PASSWORD_MAX = 1024;

function bounded(x: unknown, path: string, max: number): string {
  const s = string(x, path);
  return s.length <= max ? s : reject(path, `at most ${max} characters`);
}

function keystore(x: unknown, path: string): KeystoreFile {
  const k = parseKeystoreFile(x);
  return k.ok ? k.value : reject(path, `a keystore (${k.error})`);
}

function minutes(x: unknown, path: string): number {
  const m = natural(x, path);
  return m >= 1 && m <= 1440 ? m : reject(path, "1 to 1440 minutes");
}

function request(raw: unknown): VaultRequest {
  const r = record(raw, "request");
  const op = string(r.op, "request.op");
  switch (op) {
    case "generate":
      if (r.words !== 12 && r.words !== 24) reject("request.words", "12 or 24");
      return { op, words: r.words as 12 | 24 };
    case "confirmWords":
      return {
        op,
        answers: array(r.answers, "request.answers").map((a, i) => {
          const o = record(a, `request.answers[${i}]`);
          return {
            position: natural(o.position, `request.answers[${i}].position`),
            word: bounded(o.word, `request.answers[${i}].word`, 100),
          };
        }),
      };
    case "create":
      return {
        op,
        password: bounded(r.password, "request.password", PASSWORD_MAX),
        phrase: r.phrase === null ? null : bounded(r.phrase, "request.phrase", PHRASE_MAX),
        idleLockMinutes: minutes(r.idleLockMinutes, "request.idleLockMinutes"),
      };
    case "unlock":
      return {
        op,
        keystore: keystore(r.keystore, "request.keystore"),
        password: bounded(r.password, "request.password", PASSWORD_MAX),
      };
    case "lock":
    case "activity":
      return { op };
    case "setIdle":
      return { op, minutes: minutes(r.minutes, "request.minutes") };
    case "sign": {
      const requestKey = string(r.requestKey, "request.requestKey");
      if (!/^[A-Za-z0-9_-]{43}$/.test(requestKey))
        reject("request.requestKey", "a 43-character base64url request key");
      return { op, keyId: bounded(r.keyId, "request.keyId", 64), requestKey };
    }
    case "phraseKeys": {
      const count = natural(r.count, "request.count");
      if (count > 100) reject("request.count", "at most 100");
      return { op, from: natural(r.from, "request.from"), count };
    }
    case "addPhraseKeys":
      return {
        op,
        keystore: keystore(r.keystore, "request.keystore"),
        indices: array(r.indices, "request.indices").map((i, n) =>
          natural(i, `request.indices[${n}]`),
        ),
      };
    case "importKey": {
      const source = r.source;
      if (source !== "imported" && source !== "test-account")
        reject("request.source", '"imported" or "test-account"');
      return {
        op,
        keystore: keystore(r.keystore, "request.keystore"),
        keyFile: bounded(r.keyFile, "request.keyFile", 2000),
        publicKey: bounded(r.publicKey, "request.publicKey", 200),
        secretKey: bounded(r.secretKey, "request.secretKey", 200),
        label: bounded(r.label, "request.label", 100),
        source: source as "imported" | "test-account",
      };
    }
    case "removeKey":
      return {
        op,
        keystore: keystore(r.keystore, "request.keystore"),
        keyId: bounded(r.keyId, "request.keyId", 64),
      };
    case "changePassword":
      return {
        op,
        keystore: keystore(r.keystore, "request.keystore"),
        oldPassword: bounded(r.oldPassword, "request.oldPassword", PASSWORD_MAX),
        newPassword: bounded(r.newPassword, "request.newPassword", PASSWORD_MAX),
      };
    case "revealPhrase":
      return {
        op,
        keystore: keystore(r.keystore, "request.keystore"),
        password: bounded(r.password, "request.password", PASSWORD_MAX),
      };
    default:
      return reject("request.op", "a vault operation");
  }
}

/** Parses a request the worker received (without its `id`). */
export function parseVaultRequest(raw: unknown): Decoded<VaultRequest> {
  return decode(raw, request);
}

const CODES = new Set<string>(Object.values(VaultErrorCode));

function message(raw: unknown): VaultMessage {
  const m = record(raw, "message");
  if (m.event !== undefined) {
    if (m.event !== "locked") reject("message.event", '"locked"');
    if (m.reason !== "idle" && m.reason !== "request")
      reject("message.reason", '"idle" or "request"');
    return { event: "locked", reason: m.reason };
  }
  const id = natural(m.id, "message.id");
  if (m.ok === true) return { id, ok: true, result: m.result };
  const e = record(m.error, "message.error");
  const code = string(e.code, "message.error.code");
  if (!CODES.has(code)) reject("message.error.code", "a vault error code");
  const retryAfterMs =
    e.retryAfterMs === undefined
      ? undefined
      : natural(e.retryAfterMs, "message.error.retryAfterMs");
  return {
    id,
    ok: false,
    error: {
      code: code as VaultErrorCodeValue,
      message: string(e.message, "message.error.message"),
      retryAfterMs,
    },
  };
}

/** Parses a message the page received from the worker. */
export function parseVaultMessage(raw: unknown): Decoded<VaultMessage> {
  return decode(raw, message);
}
