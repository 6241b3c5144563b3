/**
 * The test accounts of the `development` network (docs/dev-accounts.md):
 *
 * - `sender00` … `sender09` and their `k:` accounts, guarded by the reference
 *   development network's published test key pairs (devAccountKeys.ts), so
 *   the ecosystem's tutorials and tools sign with keys Weft funds;
 * - ten more `k:` accounts whose keys come from a published BIP39 phrase by
 *   SLIP-10 ed25519 derivation on `m/44'/626'/i'` (the wallet's derivation),
 *   so importing the phrase into the wallet shows funded accounts.
 *
 * All these keys are public: they guard coins of a development network only.
 * The phrase's public keys are kept as data (genesis must not derive keys at
 * every node start); `derivePhraseAccount` derives them, and a test checks
 * both agree.
 * @module
 */
import { mnemonicToSeedSync } from "@scure/bip39";
import { slip10DerivePath, slip10PublicKey } from "../crypto/slip10.ts";
import { hexEncode } from "../encoding/hex.ts";
import { DEV_ACCOUNT_KEYS } from "./devAccountKeys.ts";

/** Number of `senderNN` test accounts. */
export const DEV_ACCOUNT_COUNT = DEV_ACCOUNT_KEYS.length;

/** `sender00` … `sender09`. */
export function devAccountName(i: number): string {
  return `sender${String(i).padStart(2, "0")}`;
}

/** A `senderNN` test account: its names and key pair (hex). */
export type DevAccount = {
  /** `senderNN` (a keys-all keyset of its key). */
  readonly account: string;
  /** `k:<public key>`, funded too. */
  readonly kAccount: string;
  readonly publicKey: string;
  /** The 32-byte ed25519 secret seed (hex), as signing takes it. */
  readonly secretKey: string;
};

/** Test account `senderNN` for `i` in 0–9. */
export function devAccount(i: number): DevAccount {
  const keys = DEV_ACCOUNT_KEYS[i];
  if (keys === undefined) throw new RangeError(`no test account ${i} (0-${DEV_ACCOUNT_COUNT - 1})`);
  return { ...keys, kAccount: `k:${keys.publicKey}` };
}

/** The published phrase (24 words, English word list, no passphrase). */
export const DEV_PHRASE =
  "bacon fresh plate secret segment december neutral isolate lizard debris special rug volcano panic effort offer stage portion useful option exact pumpkin depart dirt";

/** Number of funded `k:` accounts derived from the phrase. */
export const PHRASE_ACCOUNT_COUNT = 10;

/** The derivation path of phrase account `i`. */
export function phraseAccountPath(i: number): string {
  return `m/44'/626'/${i}'`;
}

/** The public keys of the phrase accounts 0 … 9 (hex), in order. */
export const PHRASE_PUBLIC_KEYS: readonly string[] = [
  "ea99bf1af87ece0f573b93fef803ff42153fb605bb2bd8efafc1fcd7990a4587",
  "6e44b7e121166f136bdd096b86af2cecfe2461854ca6c49f1f0ab1dfd5050e46",
  "838b5c14b28ac1c01b8c902351bc38eb7e75e7061acdb46a9ef805706ed5e720",
  "20206fda43e70121aeb0834de184547884efe40f843025a8344d320bc5edbfea",
  "a0beb0642df7922fb518263abf7ff7847145dbedbec370f610ae8e9c53954090",
  "366bedd2d2eb4f81c005f047b706950d558b582ca2ebe3f53f1f48c748c29ace",
  "493ab18f1542e967234783b92e5ec386f8c544ecf7024c9f5fbc7c2a592a2ead",
  "4069dfb3dfcac36aec831695580ab901f1fa92a35304872a1d4f2a023b02d968",
  "48f9c733a5ba7181f0fcf826761d724d03a34d294d66fb63a300461eae0f4608",
  "11fb0fbddc4836d0cf3ff599f221b98cfaceda769de076251b817aaaa07928fb",
];

/** A phrase account: its `k:` name, key pair (hex) and derivation path. */
export type PhraseAccount = {
  /** `k:<public key>` (a keys-all keyset of its key). */
  readonly kAccount: string;
  readonly publicKey: string;
  /** The 32-byte ed25519 secret seed (hex), as signing takes it. */
  readonly secretKey: string;
  readonly path: string;
};

let seed: Uint8Array | undefined;

/** Derives phrase account `i` (0–9) from the published phrase. */
export function derivePhraseAccount(i: number): PhraseAccount {
  seed ??= mnemonicToSeedSync(DEV_PHRASE, "");
  const path = phraseAccountPath(i);
  const key = slip10DerivePath(seed, path);
  const publicKey = hexEncode(slip10PublicKey(key.privateKey));
  return { kAccount: `k:${publicKey}`, publicKey, secretKey: hexEncode(key.privateKey), path };
}
