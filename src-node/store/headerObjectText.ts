/**
 * The object encoding of a header as the JSON text pages send
 * (`application/json;blockheader-encoding=object`), computed from the
 * binary header. blocks.sqlite keeps it beside the binary form (column
 * `header_texts.object_json`, schema version 4; `headers.header_object` in
 * version 3), written when a header is
 * stored, so a page of headers is its rows' texts joined, never decoded and
 * encoded again. The binary header stays the source of truth.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import { blockHeaderToObject } from "../chain/blockHeaderObject.ts";

export function headerObjectText(header: BlockHeader): string {
  return JSON.stringify(blockHeaderToObject(header));
}
