/**
 * The wallet's key logic, run as the renderer runs it: BIP39 + SLIP-10 derivation on
 * `m/44'/626'/i'` against the vectors of wallet-anchors.md §7.3 (and against the node's own
 * slip10.ts), phrase checks naming the first bad word, the keystore's encryption round trip,
 * one flipped byte anywhere in the sealed part or its parameters refused, a wrong password
 * refused, the file parser's refusals, and "Import a key"'s parsing.
 */
import { base64 } from "@scure/base";
import { describe, expect, it } from "vitest";
import {
  deriveKey,
  deriveKeys,
  seedOfPhrase,
} from "../../renderer/src/features/wallet/keystore/derivation.ts";
import { parseImportedKey } from "../../renderer/src/features/wallet/keystore/keyImport.ts";
import {
  KeystoreOpenError,
  keyOfPassword,
  openKeystore,
} from "../../renderer/src/features/wallet/keystore/keystoreCrypto.ts";
import {
  confirmationPositions,
  newPhrase,
  phraseProblem,
} from "../../renderer/src/features/wallet/keystore/phrase.ts";
import { slip10DerivePath, slip10PublicKey } from "../../src-node/crypto/slip10.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import { parseKeystoreFile } from "../../src-node/walletFiles/keystoreFile.ts";
import { TEST_PHRASE, testKeystore } from "../support/keystoreFixture.ts";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("[renderer] wallet key derivation (wallet-anchors.md §7.3)", () => {
  const seed = seedOfPhrase(TEST_PHRASE);
  it("m/44'/626'/0' and 1'", () => {
    expect(deriveKey(seed, 0)).toEqual({
      index: 0,
      publicKey: "60ec71ef5df37ee922b272edf60590158938d6a6e0d385d506de913ad3f2be3d",
      secretKey: "b584e9bdb0ed7ce973bed7af78ff13252a5e445d018a0b09eb29d78cd8af5b2a",
    });
    expect(deriveKey(seed, 1)).toEqual({
      index: 1,
      publicKey: "6aedafdaba0e3ab05a5f3db38a0bd9cb0e0812d8f6439c8b3f73d59daf2bcf4c",
      secretKey: "37256f848ecc6d5f0ef8cc7e18b0b1ed1bd591e20d6f8d148604ebab11151c15",
    });
  });
  it("m/44'/626'/0'/0'/0'", () => {
    expect(deriveKey(seed, 0, [0, 0]).publicKey).toBe(
      "73b704639a50bfc9c492d9a54d71dee92b2bb5eb8895a38fa455c930169ed146",
    );
  });
  it("agrees with the node's slip10.ts on keys 0–19", () => {
    for (const k of deriveKeys(seed, 0, 20)) {
      const node = slip10DerivePath(seed, `m/44'/626'/${k.index}'`);
      expect(k.secretKey).toBe(hex(node.privateKey));
      expect(k.publicKey).toBe(hex(slip10PublicKey(node.privateKey)));
    }
  });
  it("refuses indices outside 0 … 2^31 − 1", () => {
    expect(() => deriveKey(seed, -1)).toThrow(RangeError);
    expect(() => deriveKey(seed, 0x8000_0000)).toThrow(RangeError);
  });
});

describe("[renderer] recovery phrases", () => {
  it("makes 12- and 24-word phrases that pass the check", () => {
    for (const n of [12, 24] as const) {
      const words = newPhrase(n);
      expect(words).toHaveLength(n);
      expect(phraseProblem(words.join(" "))).toBeNull();
    }
    expect(newPhrase(12)).not.toEqual(newPhrase(12));
  });
  it("names the first word not in the list, then the length, then the checksum", () => {
    expect(phraseProblem(TEST_PHRASE)).toBeNull();
    expect(phraseProblem(`  ${TEST_PHRASE.toUpperCase().replaceAll(" ", "\n  ")} `)).toBeNull();
    expect(phraseProblem(TEST_PHRASE.replace("about", "abuot"))).toBe(
      'Word 12 ("abuot") is not in the English BIP39 word list.',
    );
    expect(phraseProblem("abandon zzz yyy")).toContain('Word 2 ("zzz")');
    expect(phraseProblem("abandon abandon")).toContain("12, 15, 18, 21 or 24 words");
    expect(phraseProblem(TEST_PHRASE.replace("about", "abandon"))).toContain("checksum");
    expect(phraseProblem("   ")).toContain("Type or paste");
  });
  it("picks distinct positions to confirm", () => {
    let i = 0;
    const seq = [5, 5, 2, 9];
    expect(confirmationPositions(12, 3, () => seq[i++] ?? 0)).toEqual([2, 5, 9]);
  });
});

describe("[renderer] keystore encryption", () => {
  it("round trip: the password opens what was sealed", () => {
    const file = testKeystore("pw one");
    const parsed = parseKeystoreFile(JSON.parse(JSON.stringify(file)));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(openKeystore(keyOfPassword("pw one", file.kdf), parsed.value)).toEqual({
      phrase: TEST_PHRASE,
      secretKeys: {},
    });
    // The phrase is nowhere in the clear.
    expect(JSON.stringify(file)).not.toContain("abandon");
  });
  it("a wrong password is refused", () => {
    const file = testKeystore("pw one");
    expect(() => openKeystore(keyOfPassword("pw two", file.kdf), file)).toThrow(KeystoreOpenError);
  });
  it("one flipped byte in the ciphertext, the nonce or the salt is refused", () => {
    const file = testKeystore("pw");
    const key = keyOfPassword("pw", file.kdf);
    const sealed = base64.decode(file.ciphertext);
    for (const at of [0, sealed.length >> 1, sealed.length - 1]) {
      const flipped = sealed.slice();
      flipped[at] = (flipped[at] ?? 0) ^ 1;
      expect(() => openKeystore(key, { ...file, ciphertext: base64.encode(flipped) })).toThrow(
        KeystoreOpenError,
      );
    }
    const flipHex = (h: string) => (h[0] === "0" ? "1" : "0") + h.slice(1);
    expect(() =>
      openKeystore(key, { ...file, cipher: { ...file.cipher, nonce: flipHex(file.cipher.nonce) } }),
    ).toThrow(KeystoreOpenError);
    // The KDF parameters are authenticated: the same key with another salt is refused.
    expect(() =>
      openKeystore(key, { ...file, kdf: { ...file.kdf, salt: flipHex(file.kdf.salt) } }),
    ).toThrow(KeystoreOpenError);
    expect(openKeystore(key, file).phrase).toBe(TEST_PHRASE);
  });
  it("the parser refuses other versions, unsafe KDF costs and malformed parts, naming the field", () => {
    // biome-ignore lint/suspicious/noExplicitAny: the test edits the file's JSON freely
    type Json = Record<string, any>;
    const f = JSON.parse(JSON.stringify(testKeystore())) as Json;
    const reason = (patch: (x: Json) => void) => {
      const c = structuredClone(f);
      patch(c);
      const r = parseKeystoreFile(c);
      return r.ok ? "ok" : r.error;
    };
    expect(reason(() => {})).toBe("ok");
    expect(reason((c) => (c.version = 2))).toContain("keystore.version");
    expect(reason((c) => (c.kdf.N = 2 ** 24))).toContain("keystore.kdf.N");
    expect(reason((c) => (c.kdf.N = 3000))).toContain("keystore.kdf.N");
    expect(reason((c) => (c.cipher.nonce = "00"))).toContain("keystore.cipher.nonce");
    expect(reason((c) => (c.public.keys[0].publicKey = "ab"))).toContain(
      "keystore.public.keys[0].publicKey",
    );
    expect(reason((c) => delete c.public.keys[0].index)).toContain("keystore.public.keys[0].index");
    expect(reason((c) => (c.public.settings.idleLockMinutes = 0))).toContain("idleLockMinutes");
    expect(reason((c) => (c.ciphertext = "%%"))).toContain("keystore.ciphertext");
  });
});

describe("[renderer] Import a key", () => {
  const sender = DEV_ACCOUNT_KEYS[0];
  if (sender === undefined) throw new Error("no dev keys");
  it("takes a public and secret key pair, or a weft -g key file", () => {
    expect(
      parseImportedKey({
        keyFile: "",
        publicKey: sender.publicKey.toUpperCase(),
        secretKey: sender.secretKey,
      }),
    ).toEqual({ ok: true, value: { publicKey: sender.publicKey, secretKey: sender.secretKey } });
    expect(
      parseImportedKey({
        keyFile: `public: ${sender.publicKey}\nsecret: ${sender.secretKey}\n`,
        publicKey: "",
        secretKey: "",
      }),
    ).toEqual({ ok: true, value: { publicKey: sender.publicKey, secretKey: sender.secretKey } });
  });
  it("refuses malformed keys and a secret of another public key", () => {
    const other = DEV_ACCOUNT_KEYS[1]?.secretKey ?? "";
    const problem = (i: { keyFile?: string; publicKey?: string; secretKey?: string }) => {
      const r = parseImportedKey({ keyFile: "", publicKey: "", secretKey: "", ...i });
      return r.ok ? "ok" : r.error;
    };
    expect(problem({ publicKey: "12", secretKey: sender.secretKey })).toContain("Public key");
    expect(problem({ publicKey: sender.publicKey, secretKey: "zz" })).toContain("Secret key");
    expect(problem({ publicKey: sender.publicKey, secretKey: other })).toContain("does not belong");
    expect(problem({ keyFile: "public: 12" })).toContain("key file");
  });
});
