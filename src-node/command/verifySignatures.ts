/**
 * Signature checks of a command: `sigs` correspond one-to-one and in order
 * with the `signers` inside `cmd`; a signer's `addr`, when present, is its
 * `pubKey` exactly (the same text, as the reference's `verifyUserSig`
 * requires of an ED25519 signer); and each signature is an ed25519 signature
 * by its signer's key over the 32 raw bytes of the request key.
 *
 * The `addr` rule is what makes a signature speak only for its own key: the
 * reference's evaluator takes `addr` as the signer's key when present, so a
 * signer naming someone else's key in `addr` would be counted for a keyset
 * it never signed for. Weft's evaluator takes `pubKey` (exec/contractInput.ts),
 * and every place that verifies refuses the mismatch before the signature.
 *
 * A {@link SignatureChecker} remembers the (request key, key, signature)
 * triples it verified (a bounded LRU): a command sent with /send is checked
 * again when its block is validated, and clients repeat the same signed
 * /local request.
 * @module
 */
import type { CommandCrypto } from "./commandCrypto.ts";
import type { ParsedCommand, Signer } from "./commandTypes.ts";
import { CommandError, CommandErrorCode } from "./errors.ts";
import { requestKeyText } from "./requestKeyBytes.ts";

/**
 * The error for a signer whose `addr` is present and is not its `pubKey`
 * (same text: case differences count), or null. Used by verification and by
 * the wallet before it signs.
 * @param fieldPrefix e.g. `"cmds[2]."`; the field named is `…cmd.signers[i].addr`.
 */
export function signerAddressError(
  signer: Signer,
  index: number,
  fieldPrefix = "",
): CommandError | null {
  const addr = signer.addr;
  if (addr === undefined || addr === signer.pubKey) return null;
  const field = `${fieldPrefix}cmd.signers[${index}].addr`;
  return new CommandError(
    { code: CommandErrorCode.AddressMismatch, field, index, pubKey: signer.pubKey, addr },
    `${field}: the address does not match the signer's public key: addr ${addr}, pubKey ${signer.pubKey} (a signature speaks only for its own key)`,
  );
}

/**
 * Refuses the first signer whose `addr` is not its `pubKey` ({@link signerAddressError}),
 * for the places that take a command to be signed, not yet signed (the wallet, the dapp
 * signing API, the command-line tool's files).
 * @throws {CommandError} CMD_ADDRESS_MISMATCH
 */
export function checkSignerAddresses(signers: readonly Signer[], fieldPrefix = ""): void {
  signers.forEach((signer, i) => {
    const error = signerAddressError(signer, i, fieldPrefix);
    if (error !== null) throw error;
  });
}

/** Most remembered valid signatures. */
const VERIFIED_CACHE_SIZE = 16_384;

export class SignatureChecker {
  readonly #crypto: CommandCrypto;
  readonly #verified = new Set<string>();
  readonly #size: number;

  constructor(crypto: CommandCrypto, size = VERIFIED_CACHE_SIZE) {
    this.#crypto = crypto;
    this.#size = size;
  }

  #verifiedBefore(
    hashBytes: Uint8Array,
    hashText: string | undefined,
    sig: string,
    pubKey: string,
  ): boolean {
    const hash = hashText ?? requestKeyText(hashBytes);
    const id = `${hash}:${pubKey.toLowerCase()}:${sig.toLowerCase()}`;
    const verified = this.#verified;
    if (verified.has(id)) {
      // Most recently used last.
      verified.delete(id);
      verified.add(id);
      return true;
    }
    if (!this.#crypto.verify(hashBytes, sig, pubKey)) return false;
    if (verified.size >= this.#size) verified.delete(verified.values().next().value as string);
    verified.add(id);
    return true;
  }

  /**
   * Verifies signatures positionally against signers.
   * @param fieldPrefix prefixes field names in errors, e.g. `"cmds[2]."`.
   * @param hashText the request key of `hashBytes`, when the caller has it (saves encoding it).
   * @throws {CommandError} CMD_SIG_COUNT when the counts differ; for the first
   *   signer in order that fails: CMD_ADDRESS_MISMATCH naming
   *   `cmd.signers[i].addr` ({@link signerAddressError}), or CMD_BAD_SIGNATURE
   *   naming `sigs[i].sig` for a signature that does not verify (an empty,
   *   unsigned slot included).
   */
  verifySignatures(
    hashBytes: Uint8Array,
    signers: readonly Signer[],
    sigs: readonly string[],
    fieldPrefix = "",
    hashText?: string,
  ): void {
    if (signers.length !== sigs.length) {
      const field = `${fieldPrefix}sigs`;
      throw new CommandError(
        { code: CommandErrorCode.SigCount, field, signers: signers.length, sigs: sigs.length },
        `${field}: the number of signers and signatures differ: ${signers.length} signers, ${sigs.length} signatures`,
      );
    }
    signers.forEach((signer, i) => {
      const addressError = signerAddressError(signer, i, fieldPrefix);
      if (addressError !== null) throw addressError;
      const sig = sigs[i] ?? "";
      if (!this.#verifiedBefore(hashBytes, hashText, sig, signer.pubKey)) {
        const field = `${fieldPrefix}sigs[${i}].sig`;
        throw new CommandError(
          { code: CommandErrorCode.BadSignature, field, index: i },
          sig === ""
            ? `${field}: signer ${i} (${signer.pubKey}) has not signed`
            : `${field}: the signature at position ${i} is not valid for signer ${signer.pubKey}`,
        );
      }
    });
  }

  /** Verifies the signatures of a parsed command (see {@link verifySignatures}). */
  verifyCommandSignatures(command: ParsedCommand, fieldPrefix = ""): void {
    this.verifySignatures(
      command.hashBytes,
      command.payload.signers,
      command.sigs,
      fieldPrefix,
      command.hash,
    );
  }
}
