/**
 * The default JSON form of a header: a string, the unpadded base64url of the
 * binary header (reference chainweb-api.md §1.2).
 * @module
 */
import { base64UrlDecode, base64UrlEncode } from "../encoding/base64url.ts";
import { EncodingError, EncodingErrorCode } from "../encoding/errors.ts";
import type { BlockHeader } from "./blockHeader.ts";
import {
  type DecodeHeaderOptions,
  decodeBlockHeader,
  encodeBlockHeader,
} from "./blockHeaderBinary.ts";

/** The base64url text of the binary header. */
export function encodeBlockHeaderText(header: BlockHeader): string {
  return base64UrlEncode(encodeBlockHeader(header));
}

/**
 * Decodes the base64url text of a binary header.
 * @throws {EncodingError} ENC_BAD_TYPE / ENC_BAD_BASE64URL naming `header`,
 *   and everything {@link decodeBlockHeader} throws.
 */
export function decodeBlockHeaderText(
  text: string,
  options: DecodeHeaderOptions = {},
): BlockHeader {
  if (typeof text !== "string") {
    throw new EncodingError(
      { code: EncodingErrorCode.BadType, field: "header", expected: "a base64url string" },
      "header: expected a base64url string",
    );
  }
  return decodeBlockHeader(base64UrlDecode(text, "header"), options);
}
