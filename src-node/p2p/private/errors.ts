/**
 * Errors of `/private` and its delivery between addressed nodes
 * (docs/private.md): a node without an entity name, a command whose sender
 * is not this node's entity, an addressed entity that is not pinned or that
 * no peer announces with its pinned key, an envelope that is malformed, not
 * for this node, from an entity this node does not trust, not signed by the
 * sender's pinned key, replayed, or that does not decrypt, a delivery that
 * did not reach an addressed node, and the trust list's refusals. Statuses
 * in api/errorStatus.ts.
 * @module
 */
import { NodeError } from "../../errors/nodeError.ts";

export const PrivateErrorCode = {
  NoEntity: "PRIVATE_NO_ENTITY",
  NotSender: "PRIVATE_NOT_SENDER",
  UnknownEntity: "PRIVATE_UNKNOWN_ENTITY",
  UntrustedEntity: "PRIVATE_UNTRUSTED_ENTITY",
  UntrustedSender: "PRIVATE_UNTRUSTED_SENDER",
  BadSignature: "PRIVATE_BAD_SIGNATURE",
  Replayed: "PRIVATE_REPLAYED",
  BadEnvelope: "PRIVATE_BAD_ENVELOPE",
  NotAddressed: "PRIVATE_NOT_ADDRESSED",
  Undecryptable: "PRIVATE_UNDECRYPTABLE",
  DeliveryFailed: "PRIVATE_DELIVERY_FAILED",
  KeyFileUnreadable: "PRIVATE_KEY_FILE_UNREADABLE",
  BadTrustedEntity: "PRIVATE_BAD_TRUSTED_ENTITY",
  TrustConflict: "PRIVATE_TRUST_CONFLICT",
  NotTrusted: "PRIVATE_NOT_TRUSTED",
  TrustFileUnreadable: "PRIVATE_TRUST_FILE_UNREADABLE",
} as const;

export type PrivateErrorCodeValue = (typeof PrivateErrorCode)[keyof typeof PrivateErrorCode];

export type PrivateErrorType =
  | { code: typeof PrivateErrorCode.NoEntity }
  /** `from`: the command's sender; `entity`: this node's. */
  | { code: typeof PrivateErrorCode.NotSender; from: string; entity: string }
  | { code: typeof PrivateErrorCode.UnknownEntity; entities: readonly string[] }
  /** `entities`: addressed entities whose key this node has not pinned. */
  | { code: typeof PrivateErrorCode.UntrustedEntity; entities: readonly string[] }
  /** `from`: the envelope's sender, not pinned on this node. */
  | { code: typeof PrivateErrorCode.UntrustedSender; from: string }
  | { code: typeof PrivateErrorCode.BadSignature; from: string }
  /** `id`: the envelope's id; `reason`: seen before, or outside the replay window. */
  | { code: typeof PrivateErrorCode.Replayed; from: string; id: string; reason: string }
  | { code: typeof PrivateErrorCode.BadEnvelope; field: string; reason: string }
  | { code: typeof PrivateErrorCode.NotAddressed; entity: string | null; to: string }
  | { code: typeof PrivateErrorCode.Undecryptable }
  /** `failures`: the addressed entity and peer, and why. */
  | {
      code: typeof PrivateErrorCode.DeliveryFailed;
      failures: readonly { entity: string; peer: string; reason: string }[];
    }
  | { code: typeof PrivateErrorCode.KeyFileUnreadable; path: string; reason: string }
  /** `field`: `name`, `publicKey`, or the configuration key (`p2p.trusted-entities.bob`). */
  | { code: typeof PrivateErrorCode.BadTrustedEntity; field: string; reason: string }
  | { code: typeof PrivateErrorCode.TrustConflict; name: string; reason: string }
  | { code: typeof PrivateErrorCode.NotTrusted; name: string }
  | { code: typeof PrivateErrorCode.TrustFileUnreadable; path: string; reason: string };

export class PrivateError extends NodeError<PrivateErrorType> {}

export function badEnvelope(field: string, reason: string): PrivateError {
  return new PrivateError(
    { code: PrivateErrorCode.BadEnvelope, field, reason },
    `${field}: ${reason}`,
  );
}
