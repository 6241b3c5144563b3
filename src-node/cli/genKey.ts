/**
 * `weft -g`: generates an ed25519 key pair and prints it as YAML (`public`,
 * `secret`), which is a key file for `add-sig` and an entry for `keyPairs`.
 * @module
 */
import { generateKeyPair } from "../crypto/ed25519.ts";
import type { CliIo } from "./io.ts";

/** Prints a fresh key pair. */
export function genKey(io: CliIo): void {
  const { publicKey, secretKey } = generateKeyPair();
  io.stdout.write(`public: ${publicKey}\nsecret: ${secretKey}\n`);
}
