/**
 * The receipt an addressed node answers an envelope with (docs/private.md
 * "Delivery"): the request key it ran, its party set's chain after the
 * step (partyChain.ts), signed with the recipient entity's key over the
 * envelope's network, chain, sender, recipient and id. The sender counts an
 * entity as reached only with a receipt that verifies under that entity's
 * pinned key, so a peer that is not the entity cannot pretend it ran the
 * command, and the sender learns the recipient's digest from the
 * recipient itself.
 *
 * Wire form: `{"requestKey", "parties": {"steps", "digest"}, "signature"}`.
 * @module
 */
import { base64UrlDecode, base64UrlEncode, isHashText } from "../../encoding/base64url.ts";
import { verifyEntitySignature } from "./entityIdentity.ts";
import { type EntityKeys, signAsEntity } from "./entityKeys.ts";
import type { PartyView } from "./partyChain.ts";
import type { Envelope } from "./sealedEnvelope.ts";

export type Receipt = {
  readonly requestKey: string;
  readonly parties: PartyView;
  /** 64 bytes, unpadded base64url. */
  readonly signature: string;
};

type Delivered = Pick<Envelope, "network" | "chainId" | "from" | "to" | "id">;

function receiptBytes(e: Delivered, requestKey: string, parties: PartyView): Uint8Array {
  return new TextEncoder().encode(
    JSON.stringify([
      "weft-private-receipt",
      e.network,
      e.chainId,
      e.from,
      e.to,
      e.id,
      requestKey,
      parties.steps,
      parties.digest,
    ]),
  );
}

/** The recipient's receipt for `envelope`. */
export function signReceipt(
  keys: EntityKeys,
  envelope: Delivered,
  requestKey: string,
  parties: PartyView,
): Receipt {
  const signature = signAsEntity(keys, receiptBytes(envelope, requestKey, parties));
  return { requestKey, parties, signature: base64UrlEncode(signature) };
}

/** Whether `receipt` is the `to` entity's (pinned `recipientKey`) for `envelope`. */
export function isReceiptOf(
  receipt: Receipt,
  envelope: Delivered,
  recipientKey: Uint8Array,
): boolean {
  return verifyEntitySignature(
    recipientKey,
    receiptBytes(envelope, receipt.requestKey, receipt.parties),
    base64UrlDecode(receipt.signature, "signature"),
  );
}

/** A receipt as a peer answered it, or why it is not one. */
export function readReceipt(value: unknown): Receipt | string {
  if (typeof value !== "object" || value === null) return "the answer is not a receipt";
  const o = value as Record<string, unknown>;
  if (!isHashText(o.requestKey)) return "receipt: requestKey is not a request key";
  const p = (typeof o.parties === "object" && o.parties !== null ? o.parties : {}) as Record<
    string,
    unknown
  >;
  if (typeof p.steps !== "number" || !Number.isSafeInteger(p.steps) || p.steps < 0) {
    return "receipt: parties.steps is not a count";
  }
  if (!isHashText(p.digest)) return "receipt: parties.digest is not a digest";
  if (typeof o.signature !== "string" || !/^[A-Za-z0-9_-]{86}$/.test(o.signature)) {
    return "receipt: signature is not 64 bytes of base64url";
  }
  return {
    requestKey: o.requestKey,
    parties: { steps: p.steps, digest: p.digest },
    signature: o.signature,
  };
}
