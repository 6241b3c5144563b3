/**
 * What the vault worker does, as a plain class (tests drive it without a Worker): holds the
 * unlocked wallet (the password-derived key, the phrase, the secret keys), signs request keys,
 * seals the keystore file again when keys are added or removed, throttles password attempts
 * (three free, then a wait doubling from 1 s up to 60 s) and locks itself after the idle time.
 * Secrets never leave it: answers carry keystore files (encrypted), public keys and signatures,
 * and the phrase's words only for `generate` and `revealPhrase` (password asked again).
 * @module
 */
import { commandModel } from "../../../../../src-node/command/commandModel.ts";
import {
  DEFAULT_SETTINGS,
  type KdfParams,
  type KeystoreFile,
  type StoredKey,
} from "../../../../../src-node/walletFiles/keystoreFile.ts";
import { deriveKey, deriveKeys, seedOfPhrase } from "../keystore/derivation.ts";
import { parseImportedKey } from "../keystore/keyImport.ts";
import {
  KeystoreOpenError,
  type KeystoreSecrets,
  keyOfPassword,
  newKdfParams,
  openKeystore,
  sealKeystore,
} from "../keystore/keystoreCrypto.ts";
import { newPhrase, phraseProblem, phraseWords } from "../keystore/phrase.ts";
import {
  VaultErrorCode,
  type VaultErrorCodeValue,
  type VaultRequest,
  type VaultResults,
} from "./vaultProtocol.ts";

export class VaultError extends Error {
  readonly code: VaultErrorCodeValue;
  readonly retryAfterMs: number | undefined;
  constructor(code: VaultErrorCodeValue, message: string, retryAfterMs?: number) {
    super(message);
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }
}

export type VaultClock = {
  now(): number;
  setTimeout(f: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

const systemClock: VaultClock = {
  now: () => Date.now(),
  setTimeout: (f, ms) => setTimeout(f, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Failed attempts allowed before waiting; the wait doubles from 1 s up to {@link MAX_WAIT_MS}. */
export const FREE_ATTEMPTS = 3;
export const MAX_WAIT_MS = 60_000;

type Unlocked = {
  readonly key: Uint8Array;
  readonly kdf: KdfParams;
  secrets: KeystoreSecrets;
  seed: Uint8Array | null;
  /** key id → secret seed hex */
  readonly signing: Map<string, string>;
};

export type VaultOptions = {
  readonly clock?: VaultClock | undefined;
  /** Called when the idle time-out locks the vault. */
  readonly onIdleLock?: (() => void) | undefined;
  /** scrypt parameters of new keystores (tests and the bench use smaller ones). */
  readonly kdf?: Omit<KdfParams, "salt"> | undefined;
};

const IMPORTED_ID = (publicKey: string) => `i-${publicKey.slice(0, 16)}`;
const PHRASE_ID = (index: number) => `p-${index}`;

export class VaultCore {
  #unlocked: Unlocked | null = null;
  #pendingPhrase: string | null = null;
  #failures = 0;
  #nextAttemptAt = 0;
  #idleMs = DEFAULT_SETTINGS.idleLockMinutes * 60_000;
  #idleTimer: unknown = null;
  readonly #clock: VaultClock;
  readonly #onIdleLock: () => void;
  readonly #kdf: Omit<KdfParams, "salt"> | undefined;

  constructor(options: VaultOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#onIdleLock =
      options.onIdleLock ??
      (() => {
        // No one to tell: the vault locks itself either way.
      });
    this.#kdf = options.kdf;
  }

  get isUnlocked(): boolean {
    return this.#unlocked !== null;
  }

  handle<R extends VaultRequest>(r: R): VaultResults[R["op"]] {
    return this.#handle(r) as VaultResults[R["op"]];
  }

  #handle(r: VaultRequest): VaultResults[VaultRequest["op"]] {
    switch (r.op) {
      case "generate": {
        const words = newPhrase(r.words);
        this.#pendingPhrase = words.join(" ");
        return { words };
      }
      case "confirmWords": {
        const words = this.#pendingPhrase === null ? [] : phraseWords(this.#pendingPhrase);
        const correct =
          words.length > 0 &&
          r.answers.length > 0 &&
          r.answers.every((a) => words[a.position] === a.word.trim().toLowerCase());
        return { correct };
      }
      case "create":
        return this.#create(r.password, r.phrase, r.idleLockMinutes);
      case "unlock":
        this.#unlock(r.keystore, r.password);
        this.setIdle(r.keystore.public.settings.idleLockMinutes);
        return {};
      case "lock":
        this.lock();
        return {};
      case "activity":
        this.#touch();
        return {};
      case "setIdle":
        this.setIdle(r.minutes);
        return {};
      case "sign":
        return { signature: this.#sign(r.keyId, r.requestKey) };
      case "phraseKeys": {
        const seed = this.#seed();
        return {
          keys: deriveKeys(seed, r.from, r.count).map((k) => ({
            index: k.index,
            publicKey: k.publicKey,
          })),
        };
      }
      case "addPhraseKeys":
        return { keystore: this.#addPhraseKeys(r.keystore, r.indices) };
      case "importKey":
        return { keystore: this.#importKey(r) };
      case "removeKey":
        return { keystore: this.#removeKey(r.keystore, r.keyId) };
      case "changePassword":
        return { keystore: this.#changePassword(r.keystore, r.oldPassword, r.newPassword) };
      case "revealPhrase": {
        const secrets = this.#checkPassword(r.keystore, r.password).secrets;
        if (secrets.phrase === null)
          throw new VaultError(
            VaultErrorCode.NoPhrase,
            "this wallet has no recovery phrase (its keys were imported)",
          );
        return { words: phraseWords(secrets.phrase) };
      }
      default: {
        const never: never = r;
        return never;
      }
    }
  }

  /** Clears every secret this vault holds. */
  lock(): void {
    const u = this.#unlocked;
    if (u !== null) {
      u.key.fill(0);
      u.seed?.fill(0);
      u.signing.clear();
    }
    this.#unlocked = null;
    this.#pendingPhrase = null;
    if (this.#idleTimer !== null) this.#clock.clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
  }

  setIdle(minutes: number): void {
    this.#idleMs = minutes * 60_000;
    this.#touch();
  }

  #touch(): void {
    if (this.#idleTimer !== null) this.#clock.clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    if (this.#unlocked === null) return;
    this.#idleTimer = this.#clock.setTimeout(() => {
      this.lock();
      this.#onIdleLock();
    }, this.#idleMs);
  }

  #needUnlocked(): Unlocked {
    if (this.#unlocked === null)
      throw new VaultError(VaultErrorCode.Locked, "the wallet is locked: unlock it first");
    return this.#unlocked;
  }

  #seed(): Uint8Array {
    const u = this.#needUnlocked();
    if (u.seed === null)
      throw new VaultError(
        VaultErrorCode.NoPhrase,
        "this wallet has no recovery phrase (its keys were imported)",
      );
    return u.seed;
  }

  /** Opens `file` with `password`, counting failures. */
  #tryPassword(
    file: KeystoreFile,
    password: string,
  ): { key: Uint8Array; secrets: KeystoreSecrets } {
    const now = this.#clock.now();
    if (now < this.#nextAttemptAt) {
      const wait = this.#nextAttemptAt - now;
      throw new VaultError(
        VaultErrorCode.Throttled,
        `too many wrong passwords: try again in ${Math.ceil(wait / 1000)} s`,
        wait,
      );
    }
    const key = keyOfPassword(password, file.kdf);
    try {
      const secrets = openKeystore(key, file);
      this.#failures = 0;
      this.#nextAttemptAt = 0;
      return { key, secrets };
    } catch (e) {
      key.fill(0);
      if (!(e instanceof KeystoreOpenError)) throw e;
      this.#failures += 1;
      if (this.#failures >= FREE_ATTEMPTS) {
        const wait = Math.min(MAX_WAIT_MS, 1000 * 2 ** (this.#failures - FREE_ATTEMPTS));
        this.#nextAttemptAt = this.#clock.now() + wait;
      }
      throw new VaultError(VaultErrorCode.WrongPassword, "wrong password");
    }
  }

  #checkPassword(file: KeystoreFile, password: string): { secrets: KeystoreSecrets } {
    const { key, secrets } = this.#tryPassword(file, password);
    key.fill(0);
    return { secrets };
  }

  #unlock(file: KeystoreFile, password: string): void {
    this.lock();
    const { key, secrets } = this.#tryPassword(file, password);
    const seed = secrets.phrase === null ? null : seedOfPhrase(secrets.phrase);
    const signing = new Map<string, string>();
    for (const k of file.public.keys) {
      let secret: string | undefined;
      if (k.source === "phrase") {
        secret =
          seed === null || k.index === undefined ? undefined : deriveKey(seed, k.index).secretKey;
      } else {
        secret = secrets.secretKeys[k.id];
      }
      if (secret === undefined || commandModel.publicKeyOf(secret) !== k.publicKey) {
        key.fill(0);
        seed?.fill(0);
        throw new VaultError(
          VaultErrorCode.KeyMismatch,
          `key ${k.label} (${k.id}): the keystore's secret part does not give its public key`,
        );
      }
      signing.set(k.id, secret);
    }
    this.#unlocked = { key, kdf: file.kdf, secrets, seed, signing };
  }

  #create(password: string, typed: string | null, idleLockMinutes: number): VaultResults["create"] {
    let phrase: string;
    if (typed === null) {
      if (this.#pendingPhrase === null)
        throw new VaultError(VaultErrorCode.NoPhrase, "no new phrase: generate one first");
      phrase = this.#pendingPhrase;
    } else {
      const problem = phraseProblem(typed);
      if (problem !== null) throw new VaultError(VaultErrorCode.BadPhrase, problem);
      phrase = phraseWords(typed).join(" ");
    }
    if (password.length === 0)
      throw new VaultError(VaultErrorCode.BadRequest, "the password is empty");
    this.lock();
    const kdf = newKdfParams(this.#kdf);
    const key = keyOfPassword(password, kdf);
    const seed = seedOfPhrase(phrase);
    const first = deriveKey(seed, 0);
    const keys: StoredKey[] = [
      { id: PHRASE_ID(0), publicKey: first.publicKey, label: "Key 0", source: "phrase", index: 0 },
    ];
    const secrets: KeystoreSecrets = { phrase, secretKeys: {} };
    this.#unlocked = {
      key,
      kdf,
      secrets,
      seed,
      signing: new Map([[PHRASE_ID(0), first.secretKey]]),
    };
    this.setIdle(idleLockMinutes);
    return {
      keystore: sealKeystore(key, kdf, secrets, keys, { ...DEFAULT_SETTINGS, idleLockMinutes }),
    };
  }

  #reseal(file: KeystoreFile, keys: readonly StoredKey[]): KeystoreFile {
    const u = this.#needUnlocked();
    return sealKeystore(u.key, u.kdf, u.secrets, keys, file.public.settings);
  }

  #addPhraseKeys(file: KeystoreFile, indices: readonly number[]): KeystoreFile {
    const seed = this.#seed();
    const u = this.#needUnlocked();
    const keys = [...file.public.keys];
    for (const index of indices) {
      if (keys.some((k) => k.source === "phrase" && k.index === index)) continue;
      const d = deriveKey(seed, index);
      if (keys.some((k) => k.publicKey === d.publicKey)) continue;
      keys.push({
        id: PHRASE_ID(index),
        publicKey: d.publicKey,
        label: `Key ${index}`,
        source: "phrase",
        index,
      });
      u.signing.set(PHRASE_ID(index), d.secretKey);
    }
    return this.#reseal(file, keys);
  }

  #importKey(r: Extract<VaultRequest, { op: "importKey" }>): KeystoreFile {
    const u = this.#needUnlocked();
    const parsed = parseImportedKey(r);
    if (!parsed.ok) throw new VaultError(VaultErrorCode.BadKey, parsed.error);
    const { publicKey, secretKey } = parsed.value;
    if (r.keystore.public.keys.some((k) => k.publicKey === publicKey)) {
      throw new VaultError(VaultErrorCode.DuplicateKey, "this wallet already holds that key");
    }
    const id = IMPORTED_ID(publicKey);
    u.secrets = { ...u.secrets, secretKeys: { ...u.secrets.secretKeys, [id]: secretKey } };
    u.signing.set(id, secretKey);
    const label = r.label.trim() === "" ? `Imported ${publicKey.slice(0, 8)}` : r.label.trim();
    return this.#reseal(r.keystore, [
      ...r.keystore.public.keys,
      { id, publicKey, label, source: r.source },
    ]);
  }

  #removeKey(file: KeystoreFile, keyId: string): KeystoreFile {
    const u = this.#needUnlocked();
    if (!file.public.keys.some((k) => k.id === keyId))
      throw new VaultError(VaultErrorCode.UnknownKey, `no key ${keyId} in this wallet`);
    const { [keyId]: _removed, ...rest } = u.secrets.secretKeys;
    u.secrets = { ...u.secrets, secretKeys: rest };
    u.signing.delete(keyId);
    return this.#reseal(
      file,
      file.public.keys.filter((k) => k.id !== keyId),
    );
  }

  #changePassword(file: KeystoreFile, oldPassword: string, newPassword: string): KeystoreFile {
    this.#needUnlocked();
    if (newPassword.length === 0)
      throw new VaultError(VaultErrorCode.BadRequest, "the new password is empty");
    const { secrets } = this.#checkPassword(file, oldPassword);
    const kdf = newKdfParams({
      name: file.kdf.name,
      N: file.kdf.N,
      r: file.kdf.r,
      p: file.kdf.p,
      dkLen: file.kdf.dkLen,
    });
    const key = keyOfPassword(newPassword, kdf);
    const u = this.#needUnlocked();
    u.key.fill(0);
    this.#unlocked = { ...u, key, kdf, secrets };
    return sealKeystore(key, kdf, secrets, file.public.keys, file.public.settings);
  }

  #sign(keyId: string, requestKey: string): string {
    const u = this.#needUnlocked();
    const secret = u.signing.get(keyId);
    if (secret === undefined)
      throw new VaultError(VaultErrorCode.UnknownKey, `no key ${keyId} in this wallet`);
    this.#touch();
    return commandModel.signRequestKey(requestKey, secret).sig;
  }
}
