/**
 * The hash and signature functions the command model runs on
 * ({@link CommandCrypto}) and their default, {@link nobleCommandCrypto}:
 * @noble/hashes and @noble/ed25519, pure JavaScript that runs in the browser
 * as in Node. The node injects its node:crypto versions (exec/nodeCommands.ts),
 * which give the same answers faster; a test holds them to the same vectors.
 *
 * - Request key: unpadded base64url of Blake2s-256 over the UTF-8 bytes of
 *   the `cmd` string exactly as received (Weft decision,
 *   ../shared/docs/architecture.md §2.1; the reference ledger uses Blake2b).
 *   Signatures sign its 32 raw bytes, never the base64url text.
 * - Signatures: ed25519 (RFC 8032), keys and signatures as hex. Verification
 *   is strict RFC 8032 (@noble's `zip215: false`: canonical encodings, the
 *   cofactored equation), and small-order public keys are refused, as
 *   libsodium does, since "signatures" by them need no secret.
 * @module
 */
import * as ed from "@noble/ed25519";
import { blake2s } from "@noble/hashes/blake2.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { base64urlnopad } from "@scure/base";
import { badField } from "./fieldReaders.ts";

ed.hashes.sha512 = sha512;

/** What the command model needs of cryptography; every function is pure. */
export type CommandCrypto = {
  /**
   * The request key (43 characters) of a `cmd` string.
   * @example requestKeyOf("{}") // "wDe3j-TVuDBtaXUShW28q0xjazV2enUCv3q_0s1bQ80"
   */
  readonly requestKeyOf: (cmd: string) => string;
  /**
   * The public key (hex) of a 32-byte secret seed (hex).
   * @throws {CommandError} CMD_BAD_FIELD `secretKey` when it is not 32 bytes of hex.
   */
  readonly publicKeyOf: (secretKeyHex: string) => string;
  /**
   * The 64-byte signature (hex) of `message` by a secret seed (hex).
   * @throws {CommandError} CMD_BAD_FIELD `secretKey` when it is not 32 bytes of hex.
   */
  readonly sign: (message: Uint8Array, secretKeyHex: string) => string;
  /** Whether `signatureHex` is valid for `message` by `publicKeyHex`; malformed input is false, never a throw. */
  readonly verify: (message: Uint8Array, signatureHex: string, publicKeyHex: string) => boolean;
};

const SIG_HEX = /^[0-9a-fA-F]{128}$/;
const KEY_HEX = /^[0-9a-fA-F]{64}$/;

/** The 32 bytes of a secret seed given as hex. */
export function secretKeyBytes(secretKeyHex: string): Uint8Array {
  if (typeof secretKeyHex !== "string" || !KEY_HEX.test(secretKeyHex)) {
    throw badField("secretKey", "32 bytes of hex (64 characters)");
  }
  return hexToBytes(secretKeyHex);
}

/** The default {@link CommandCrypto}: @noble, in any JavaScript environment. */
export const nobleCommandCrypto: CommandCrypto = {
  requestKeyOf: (cmd) => base64urlnopad.encode(blake2s(utf8ToBytes(cmd))),
  publicKeyOf: (secretKeyHex) => bytesToHex(ed.getPublicKey(secretKeyBytes(secretKeyHex))),
  sign: (message, secretKeyHex) => bytesToHex(ed.sign(message, secretKeyBytes(secretKeyHex))),
  verify: (message, signatureHex, publicKeyHex) => {
    if (!SIG_HEX.test(signatureHex) || !KEY_HEX.test(publicKeyHex)) return false;
    try {
      return ed.verify(hexToBytes(signatureHex), message, hexToBytes(publicKeyHex), {
        zip215: false,
      });
    } catch {
      return false;
    }
  },
};
