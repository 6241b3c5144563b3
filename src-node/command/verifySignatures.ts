/**
 * Signature checks of a command: `sigs` correspond one-to-one and in order
 * with the `signers` inside `cmd`, and each is an ed25519 signature by its
 * signer's key over the 32 raw bytes of the request key.
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
   * @throws {CommandError} CMD_SIG_COUNT when the counts differ; CMD_BAD_SIGNATURE
   *   naming `sigs[i].sig` for the first signature that does not verify (an
   *   empty, unsigned slot included).
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
