/**
 * A real keystore file for tests of the node's keystore route and the wallet's logic: sealed
 * with the renderer's own code, with the smallest scrypt cost the format allows (fast).
 */
import {
  keyOfPassword,
  newKdfParams,
  sealKeystore,
} from "../../renderer/src/features/wallet/keystore/keystoreCrypto.ts";
import { DEFAULT_SETTINGS, type KeystoreFile } from "../../src-node/walletFiles/keystoreFile.ts";

/** scrypt N = 2^14: the format's minimum, for tests only. */
export const TEST_KDF = { name: "scrypt", N: 2 ** 14, r: 8, p: 1, dkLen: 32 } as const;

export const TEST_PHRASE =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

/** A keystore holding {@link TEST_PHRASE} with key 0, under `password`. */
export function testKeystore(password = "correct horse"): KeystoreFile {
  const kdf = newKdfParams(TEST_KDF);
  return sealKeystore(
    keyOfPassword(password, kdf),
    kdf,
    { phrase: TEST_PHRASE, secretKeys: {} },
    [
      {
        id: "p-0",
        publicKey: "60ec71ef5df37ee922b272edf60590158938d6a6e0d385d506de913ad3f2be3d",
        label: "Key 0",
        source: "phrase",
        index: 0,
      },
    ],
    DEFAULT_SETTINGS,
  );
}
