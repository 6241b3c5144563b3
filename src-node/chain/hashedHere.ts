/**
 * Objects whose hashes this process computed from their contents: a header
 * decoded with its hash checked (blockHeaderObject.ts), a payload whose
 * hashes were built (payloadWithOutputs.ts). Validating them again (a block
 * a peer sent is decoded, then inserted) need not hash them twice: a sync
 * spent a tenth of its time hashing each header and payload a second time.
 * Only the very object is marked; headers and payloads are immutable by
 * type, and any changed copy is a new object, never marked.
 * @module
 */
import type { BlockHeader } from "./blockHeader.ts";
import type { PayloadWithOutputs } from "./payloadWithOutputs.ts";

const headers = new WeakSet<BlockHeader>();
const payloads = new WeakSet<PayloadWithOutputs>();

/** `header.hash` is the hash of its fields, computed here. */
export function markHeaderHashed(header: BlockHeader): BlockHeader {
  headers.add(header);
  return header;
}

export function isHeaderHashed(header: BlockHeader): boolean {
  return headers.has(header);
}

/** The payload's three hashes are those of its contents, computed here. */
export function markPayloadHashed(payload: PayloadWithOutputs): PayloadWithOutputs {
  payloads.add(payload);
  return payload;
}

export function isPayloadHashed(payload: PayloadWithOutputs): boolean {
  return payloads.has(payload);
}
