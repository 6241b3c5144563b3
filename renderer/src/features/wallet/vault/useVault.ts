/**
 * The wallet's vault as the pages see it (the contract with the transfer pages,
 * /work/notes/wallet-interface.md): the vault's state with the keys' public data, `sign`
 * (a request key signed in the worker), the wallet's non-secret settings, and the actions of
 * the key pages. The provider (VaultProvider.tsx) is mounted once around the app's router.
 * @module
 */
import { createContext, useContext, useMemo } from "react";
import type {
  KeySource,
  KeystoreFile,
  WalletSettings,
} from "../../../../../src-node/walletFiles/keystoreFile.ts";
import type { ShownError } from "../../../api/errorWords.ts";

export type VaultKey = {
  /** Stable id of the key within the keystore. */
  readonly id: string;
  /** 64 lower-case hex. */
  readonly publicKey: string;
  /** "k:" + publicKey */
  readonly account: string;
  /** e.g. "Key 0", "sender00", the user's label. */
  readonly label: string;
  readonly source: KeySource;
};

export type VaultState =
  | { readonly status: "loading" }
  /** No keystore yet: first run. */
  | { readonly status: "none" }
  | { readonly status: "locked" }
  | { readonly status: "unlocked"; readonly keys: readonly VaultKey[] };

export type Vault = {
  readonly state: VaultState;
  /**
   * Signs a request key (base64url, the command's `hash`) with a key held here; resolves to
   * the 128-hex ed25519 signature. Rejects when locked or the key is unknown.
   */
  sign(keyId: string, requestKey: string): Promise<string>;
};

/** Account discovery after a restore (keys 0–19 on every chain). */
export type DiscoveryState =
  | { readonly status: "idle" }
  | { readonly status: "running" }
  | { readonly status: "done"; readonly found: readonly number[] }
  | { readonly status: "failed"; readonly message: string };

/** What the key pages use besides {@link Vault}. */
export type VaultActions = Vault & {
  /** The stored keystore file (public part and ciphertext), null before the first wallet. */
  readonly keystore: KeystoreFile | null;
  /** Why the keystore could not be loaded, else null. */
  readonly loadError: ShownError | null;
  /** The non-secret settings (watch-only accounts, idle lock minutes), defaults before the first wallet. */
  readonly walletSettings: WalletSettings;
  /** Saves a change of the settings with the keystore file. */
  saveWalletSettings(patch: Partial<WalletSettings>): Promise<void>;
  /** A new phrase's words (held by the worker until `create`). */
  generatePhrase(words: 12 | 24): Promise<readonly string[]>;
  /** Whether the typed words (0-based positions) match the generated phrase. */
  confirmWords(answers: readonly { position: number; word: string }[]): Promise<boolean>;
  /**
   * Creates and saves the keystore (the generated phrase, or `phrase` to restore); unlocked
   * after. A restore then runs account discovery (see `discovery`).
   */
  create(password: string, phrase: string | null): Promise<void>;
  /**
   * Replaces the stored wallet with a new one made as `create` makes it (the generated phrase,
   * or `phrase` restored), keeping the wallet's settings; the node copies the old keystore
   * aside first (`POST /app/api/wallet/keystore/replace`, docs/wallet.md "Replacing the
   * wallet"). Unlocked after; a restore then runs account discovery. Resolves to where the old
   * file was kept (`wallet/keystore-replaced-….json`), null when there was none.
   */
  replace(password: string, phrase: string | null): Promise<string | null>;
  /** Where the last replacement kept the previous keystore (this session), else null. */
  readonly replacedKeptAs: string | null;
  /** The last restore's account discovery. */
  readonly discovery: DiscoveryState;
  unlock(password: string): Promise<void>;
  lock(): Promise<void>;
  /** The public keys of phrase keys `from` … (account discovery). */
  phraseKeys(from: number, count: number): Promise<readonly { index: number; publicKey: string }[]>;
  addPhraseKeys(indices: readonly number[]): Promise<void>;
  importKey(input: {
    keyFile: string;
    publicKey: string;
    secretKey: string;
    label: string;
    source: "imported" | "test-account";
  }): Promise<void>;
  removeKey(keyId: string): Promise<void>;
  changePassword(oldPassword: string, newPassword: string): Promise<void>;
  /** The phrase's words, after the password is given again. */
  revealPhrase(password: string): Promise<readonly string[]>;
};

export const VaultContext = createContext<VaultActions | null>(null);

/**
 * The wallet's accounts (`k:` + each key's public key, with its label), from the keystore's
 * public part, so known while the wallet is locked too; empty before the first wallet or
 * outside the provider. For other pages (the Node page's reward account), through app/.
 */
export function useWalletAccountList(): readonly {
  readonly account: string;
  readonly label: string;
}[] {
  const keys = useContext(VaultContext)?.keystore?.public.keys;
  return useMemo(
    () => (keys ?? []).map((k) => ({ account: `k:${k.publicKey}`, label: k.label })),
    [keys],
  );
}

/** The vault (state, sign, settings); throws outside the provider. */
export function useVault(): VaultActions {
  const v = useContext(VaultContext);
  if (v === null) throw new Error("useVault() outside <VaultProvider>");
  return v;
}
