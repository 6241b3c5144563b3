/**
 * Signature checks of a command: `sigs` correspond one-to-one and in order
 * with the `signers` inside `cmd`, and each is an ed25519 signature by its
 * signer's key over the 32 raw bytes of the request key.
 *
 * Verified (request key, key, signature) triples are remembered (a bounded
 * LRU): a command sent with /send is checked again when its block is
 * validated, and clients repeat the same signed /local request.
 * @module
 */
import { verifyBytes } from "../crypto/ed25519.ts";
import type { ParsedCommand, Signer } from "./commandTypes.ts";
import { CommandError, CommandErrorCode } from "./errors.ts";

/** Most remembered valid signatures. */
const VERIFIED_CACHE_SIZE = 16_384;
const verified = new Set<string>();

function verifiedBefore(
  hashBytes: Uint8Array,
  hashText: string | undefined,
  sig: string,
  pubKey: string,
): boolean {
  const hash = hashText ?? Buffer.from(hashBytes).toString("base64url");
  const id = `${hash}:${pubKey.toLowerCase()}:${sig.toLowerCase()}`;
  if (verified.has(id)) {
    // Most recently used last.
    verified.delete(id);
    verified.add(id);
    return true;
  }
  if (!verifyBytes(hashBytes, sig, pubKey)) return false;
  if (verified.size >= VERIFIED_CACHE_SIZE)
    verified.delete(verified.values().next().value as string);
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
export function verifySignatures(
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
    if (!verifiedBefore(hashBytes, hashText, sig, signer.pubKey)) {
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
export function verifyCommandSignatures(command: ParsedCommand, fieldPrefix = ""): void {
  verifySignatures(
    command.hashBytes,
    command.payload.signers,
    command.sigs,
    fieldPrefix,
    command.hash,
  );
}
