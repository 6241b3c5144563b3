/**
 * Block headers of a chain: `GET {base_url}/chain/{chain}/header`
 * (ascending, orphans included), `GET …/header/{blockHash}` (one header) and
 * `POST …/header/branch` (descending between branch bounds). Pages of at
 * most 360 headers. The encoding follows Accept: base64url strings
 * (application/json), objects (application/json;blockheader-encoding=object),
 * or the binary header (application/octet-stream, single header only).
 * @module
 */
import type { FastifyInstance } from "fastify";
import type { BlockHeader } from "../../chain/blockHeader.ts";
import { encodeBlockHeader } from "../../chain/blockHeaderBinary.ts";
import { blockHeaderToObject } from "../../chain/blockHeaderObject.ts";
import { base64UrlEncode } from "../../encoding/base64url.ts";
import { branchHeaderRows } from "../../store/blockPages.ts";
import type { HeaderRow } from "../../store/blockRows.ts";
import { StoreError, StoreErrorCode } from "../../store/errors.ts";
import { joinedHeaderPage } from "../../store/joinedPages.ts";
import { HEADER_OBJECT_TYPE, type HeaderEncoding, negotiateHeaderEncoding } from "../accept.ts";
import {
  parseBranchBounds,
  parseChainParam,
  parseHashParam,
  parsePageQuery,
  propertyOf,
} from "../params.ts";
import { type RouteContext, sendJoinedPage, sendJson, sendPageText } from "../routeContext.ts";

function contentType(encoding: HeaderEncoding): string {
  return encoding === "object" ? HEADER_OBJECT_TYPE : "application/json; charset=utf-8";
}

/** A header in a JSON encoding. */
function headerJson(encoding: HeaderEncoding, header: BlockHeader): unknown {
  return encoding === "object"
    ? blockHeaderToObject(header)
    : base64UrlEncode(encodeBlockHeader(header));
}

/**
 * A stored header's JSON text: the object text stored beside it, or the
 * base64url of its bytes (never decoded; base64url needs no escaping).
 */
function rowText(encoding: HeaderEncoding, row: HeaderRow): string {
  return encoding === "object" ? row.objectText : `"${base64UrlEncode(row.bytes)}"`;
}

export function registerHeaderRoutes(server: FastifyInstance, ctx: RouteContext): void {
  const { blocks } = ctx.node;

  server.get(`${ctx.base}/chain/:chain/header`, (request, reply) => {
    const chainId = parseChainParam(blocks, propertyOf(request.params, "chain"));
    const encoding = negotiateHeaderEncoding(request.headers.accept, false);
    const q = parsePageQuery(request.query, ctx.pageLimits.headers);
    // The stored object texts, or the stored bytes in base64url, written into one buffer.
    const page = joinedHeaderPage(blocks, chainId, q, encoding === "object" ? "object" : "base64");
    sendJoinedPage(reply, page, contentType(encoding));
  });

  server.get(`${ctx.base}/chain/:chain/header/:blockHash`, (request, reply) => {
    const chainId = parseChainParam(blocks, propertyOf(request.params, "chain"));
    const hash = parseHashParam(propertyOf(request.params, "blockHash"), "blockHash");
    const encoding = negotiateHeaderEncoding(request.headers.accept, true);
    const header = blocks.headerOnChain(chainId, hash);
    if (header === undefined) {
      throw new StoreError(
        { code: StoreErrorCode.KeyNotFound, key: hash, what: "blockHash" },
        `blockHash: block ${hash} not found on chain ${chainId}`,
      );
    }
    if (encoding === "binary") {
      reply
        .code(200)
        .type("application/octet-stream")
        .send(Buffer.from(encodeBlockHeader(header)));
      return;
    }
    sendJson(reply, headerJson(encoding, header), contentType(encoding));
  });

  server.post(`${ctx.base}/chain/:chain/header/branch`, (request, reply) => {
    const chainId = parseChainParam(blocks, propertyOf(request.params, "chain"));
    const encoding = negotiateHeaderEncoding(request.headers.accept, false);
    const q = parsePageQuery(request.query, ctx.pageLimits.headers);
    const bounds = parseBranchBounds(request.body);
    // The rows' stored texts, as the ascending pages (nothing encoded again).
    const page = branchHeaderRows(blocks, chainId, bounds, q);
    sendPageText(reply, page, (r) => rowText(encoding, r), contentType(encoding));
  });
}
