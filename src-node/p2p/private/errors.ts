/**
 * Errors of `/private` and its delivery between addressed nodes
 * (docs/private.md): a node without an entity name, a command whose sender
 * is not this node's entity, an addressed entity no peer announces, an
 * envelope that is malformed, not for this node or does not decrypt, and a
 * delivery that did not reach an addressed node. Statuses in
 * api/errorStatus.ts.
 * @module
 */
import { NodeError } from "../../errors/nodeError.ts";

export const PrivateErrorCode = {
  NoEntity: "PRIVATE_NO_ENTITY",
  NotSender: "PRIVATE_NOT_SENDER",
  UnknownEntity: "PRIVATE_UNKNOWN_ENTITY",
  BadEnvelope: "PRIVATE_BAD_ENVELOPE",
  NotAddressed: "PRIVATE_NOT_ADDRESSED",
  Undecryptable: "PRIVATE_UNDECRYPTABLE",
  DeliveryFailed: "PRIVATE_DELIVERY_FAILED",
  KeyFileUnreadable: "PRIVATE_KEY_FILE_UNREADABLE",
} as const;

export type PrivateErrorCodeValue = (typeof PrivateErrorCode)[keyof typeof PrivateErrorCode];

export type PrivateErrorType =
  | { code: typeof PrivateErrorCode.NoEntity }
  /** `from`: the command's sender; `entity`: this node's. */
  | { code: typeof PrivateErrorCode.NotSender; from: string; entity: string }
  | { code: typeof PrivateErrorCode.UnknownEntity; entities: readonly string[] }
  | { code: typeof PrivateErrorCode.BadEnvelope; field: string; reason: string }
  | { code: typeof PrivateErrorCode.NotAddressed; entity: string | null; to: string }
  | { code: typeof PrivateErrorCode.Undecryptable }
  /** `failures`: the addressed entity and peer, and why. */
  | {
      code: typeof PrivateErrorCode.DeliveryFailed;
      failures: readonly { entity: string; peer: string; reason: string }[];
    }
  | { code: typeof PrivateErrorCode.KeyFileUnreadable; path: string; reason: string };

export class PrivateError extends NodeError<PrivateErrorType> {}

export function badEnvelope(field: string, reason: string): PrivateError {
  return new PrivateError(
    { code: PrivateErrorCode.BadEnvelope, field, reason },
    `${field}: ${reason}`,
  );
}
