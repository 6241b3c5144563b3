/**
 * The base64url encoding of a header as the JSON text pages send
 * (`application/json`, the default header encoding): the binary header's
 * unpadded base64url in quotes. blocks.sqlite keeps it beside the object
 * text (table `header_texts`, schema version 4), written when a header is
 * stored, so a base64url page is its rows' texts joined by SQLite with no
 * encoding in JavaScript. The binary header stays the source of truth.
 * @module
 */
import { base64UrlEncode } from "../encoding/base64url.ts";

export function headerBase64Text(headerBytes: Uint8Array): string {
  return `"${base64UrlEncode(headerBytes)}"`;
}
