/**
 * Errors of the crypto area.
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";

export const CryptoErrorCode = {
  BadProof: "CRYPTO_BAD_PROOF",
  BadKey: "CRYPTO_BAD_KEY",
  BadMerkleInput: "CRYPTO_BAD_MERKLE_INPUT",
  BadSeed: "CRYPTO_BAD_SEED",
  BadDerivationPath: "CRYPTO_BAD_DERIVATION_PATH",
} as const;

export type CryptoErrorType =
  | { code: typeof CryptoErrorCode.BadProof; reason: string }
  | { code: typeof CryptoErrorCode.BadKey; field: string }
  | { code: typeof CryptoErrorCode.BadMerkleInput; reason: string }
  | { code: typeof CryptoErrorCode.BadSeed; length: number }
  | { code: typeof CryptoErrorCode.BadDerivationPath; path: string; reason: string };

export class CryptoError extends NodeError<CryptoErrorType> {}
