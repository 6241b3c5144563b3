/**
 * Key files: YAML with `public` (hex, optional) and `secret` (hex, 32-byte
 * ed25519 seed), as `weft -g` prints them. A given public key must belong to
 * the secret, so a mixed-up file fails before anything is signed.
 * @module
 */

import type { SigningKey } from "../command/signCommand.ts";
import { publicKeyOf } from "../crypto/ed25519.ts";
import { cliError } from "./errors.ts";
import { checkKeys, member, readHexText, readMap, type YamlMap } from "./fileFields.ts";
import { readYamlFile } from "./readFiles.ts";

/**
 * Reads a key pair from a mapping with `public` and `secret` (a key file, or
 * an entry of `keyPairs`).
 * @param extra further keys the mapping may hold (e.g. `caps` in keyPairs).
 */
export function readKeyPair(
  map: YamlMap,
  file: string,
  parent: string,
  extra: readonly string[] = [],
): SigningKey {
  const at = (k: string) => (parent === "" ? k : `${parent}.${k}`);
  checkKeys(map, ["public", "secret", ...extra], file, parent);
  const secretKey = readHexText(member(map, "secret"), file, at("secret"), 32);
  const derived = publicKeyOf(secretKey);
  const given = member(map, "public");
  if (given !== undefined) {
    const publicKey = readHexText(given, file, at("public"), 32);
    if (publicKey !== derived) {
      throw cliError(
        "CLI_KEY_MISMATCH",
        file,
        at("public"),
        `is not the public key of the secret (the secret's public key is ${derived})`,
      );
    }
  }
  return { publicKey: derived, secretKey };
}

/** Reads a key file. */
export function readKeyFile(path: string): SigningKey {
  return readKeyPair(readMap(readYamlFile(path), path, ""), path, "");
}
