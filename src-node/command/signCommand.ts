/**
 * Signing commands: ed25519 over the 32 raw bytes of the request key (never
 * its base64url text). Signatures come back in the form the command-line tool
 * prints (`sig`, `scheme`, `pubKey`, `addr`).
 * @module
 */
import { type CommandCrypto, secretKeyBytes } from "./commandCrypto.ts";
import {
  type Command,
  ED25519,
  type SignatureObject,
  type Signer,
  type UnsignedCommand,
} from "./commandTypes.ts";
import { CommandError, CommandErrorCode } from "./errors.ts";
import { requestKeyBytes } from "./requestKeyBytes.ts";

/** A key pair as hex: 32-byte public key and 32-byte secret seed. */
export type SigningKey = { readonly publicKey: string; readonly secretKey: string };

/** A signed command whose signatures are in the printed form (a valid {@link Command}). */
export type SignedCommand = Omit<Command, "sigs"> & { readonly sigs: readonly SignatureObject[] };

/**
 * Signs a request key (43 characters) with a secret seed.
 * @param addr the signer's address; defaults to the public key, as the tool prints it.
 * @throws {CommandError} CMD_BAD_FIELD `hash` when it is not a request key,
 *   `secretKey` when the secret is not 32 bytes of hex.
 */
export function signRequestKey(
  crypto: CommandCrypto,
  hash: string,
  secretKey: string,
  addr?: string,
): SignatureObject {
  const message = requestKeyBytes(hash);
  // Checked here, so every CommandCrypto refuses a bad secret the same way.
  secretKeyBytes(secretKey);
  const pubKey = crypto.publicKeyOf(secretKey);
  const sig = crypto.sign(message, secretKey);
  return { sig, scheme: ED25519, pubKey, addr: addr ?? pubKey };
}

/**
 * Signs an unsigned command with one key per signer, in signer order. Keys are
 * matched to signers by public key; every signer needs a key.
 * @returns the command with one printed signature object per signer.
 * @throws {CommandError} CMD_BAD_FIELD naming `signers[i].pubKey` when a signer has no key.
 */
export function signCommand(
  crypto: CommandCrypto,
  unsigned: UnsignedCommand,
  signers: readonly Signer[],
  keys: readonly SigningKey[],
): SignedCommand {
  const byPublic = new Map(keys.map((k) => [k.publicKey.toLowerCase(), k.secretKey]));
  const sigs = signers.map((s, i) => {
    const secret = byPublic.get(s.pubKey.toLowerCase());
    if (secret === undefined) throw missingKey(i, s.pubKey);
    return signRequestKey(crypto, unsigned.hash, secret, s.addr);
  });
  return { cmd: unsigned.cmd, hash: unsigned.hash, sigs };
}

function missingKey(index: number, pubKey: string): CommandError {
  const field = `signers[${index}].pubKey`;
  return new CommandError(
    { code: CommandErrorCode.BadField, field, expected: "a signer whose key is given" },
    `${field}: no secret key given for signer ${pubKey}`,
  );
}
