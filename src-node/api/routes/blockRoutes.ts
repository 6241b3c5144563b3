/**
 * Full blocks of a chain: `GET {base_url}/chain/{chain}/block` (ascending,
 * orphans included) and `POST …/block/branch` (descending between branch
 * bounds). Each item is `{header: <header object>, payloadWithOutputs}`
 * (reference §8.8). Pages of at most 360 blocks; JSON only (other Accept
 * values: 406).
 *
 * A page is written from the stored rows: ascending pages as bytes
 * (store/joinedPages.ts `joinedBlockPage`: one buffer, no object per row),
 * branch pages as text (`storedBranchBlocks`, {@link storedBlockText}); the
 * header's stored object text and the payload's stored bytes in base64url,
 * in the key order of `payloadWithOutputsToJson`; no payload object and no
 * serializer walking one (the golden pages of test/api/pageGolden.test.ts
 * pin the bytes).
 * @module
 */
import type { FastifyInstance } from "fastify";
import { blockHeaderToObject } from "../../chain/blockHeaderObject.ts";
import { payloadWithOutputsToJson } from "../../chain/payloadWithOutputs.ts";
import type { Block } from "../../store/blockDb.ts";
import { storedBranchBlocks } from "../../store/blockPages.ts";
import type { StoredBlock } from "../../store/blockRows.ts";
import { joinedBlockPage } from "../../store/joinedPages.ts";
import { requireJson } from "../accept.ts";
import { parseBranchBounds, parseChainParam, parsePageQuery, propertyOf } from "../params.ts";
import { type RouteContext, sendJoinedPage, sendPageText } from "../routeContext.ts";

/** The JSON of a block. */
export function blockJson(block: Block): unknown {
  return {
    header: blockHeaderToObject(block.header),
    payloadWithOutputs: payloadWithOutputsToJson(block.payload),
  };
}

/**
 * The JSON text of a stored block: the same bytes as `JSON.stringify(blockJson(block))`
 * (base64url and the hashes' text need no escaping).
 */
export function storedBlockText(b: StoredBlock): string {
  let txs = "";
  for (const t of b.transactions) {
    if (txs !== "") txs += ",";
    txs += `["${t.transaction.toString("base64url")}","${t.output.toString("base64url")}"]`;
  }
  const p = b.payload;
  return (
    `{"header":${b.header.objectText},"payloadWithOutputs":{"transactions":[${txs}],` +
    `"minerData":"${p.minerData.toString("base64url")}",` +
    `"transactionsHash":"${p.transactionsHash}","outputsHash":"${p.outputsHash}",` +
    `"payloadHash":"${b.payloadHash}","coinbase":"${p.coinbase.toString("base64url")}"}}`
  );
}

export function registerBlockRoutes(server: FastifyInstance, ctx: RouteContext): void {
  const { blocks } = ctx.node;
  server.get(`${ctx.base}/chain/:chain/block`, (request, reply) => {
    const chainId = parseChainParam(blocks, propertyOf(request.params, "chain"));
    requireJson(request.headers.accept);
    const q = parsePageQuery(request.query, ctx.pageLimits.headers);
    sendJoinedPage(reply, joinedBlockPage(blocks, chainId, q));
  });
  server.post(`${ctx.base}/chain/:chain/block/branch`, (request, reply) => {
    const chainId = parseChainParam(blocks, propertyOf(request.params, "chain"));
    requireJson(request.headers.accept);
    const q = parsePageQuery(request.query, ctx.pageLimits.headers);
    const bounds = parseBranchBounds(request.body);
    sendPageText(reply, storedBranchBlocks(blocks, chainId, bounds, q), storedBlockText);
  });
}
