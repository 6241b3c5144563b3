/**
 * Full blocks of a chain: `GET {base_url}/chain/{chain}/block` (ascending,
 * orphans included) and `POST …/block/branch` (descending between branch
 * bounds). Each item is `{header: <header object>, payloadWithOutputs}`
 * (reference §8.8). Pages of at most 360 blocks; JSON only (other Accept
 * values: 406).
 * @module
 */
import type { FastifyInstance } from "fastify";
import { blockHeaderToObject } from "../../chain/blockHeaderObject.ts";
import { payloadWithOutputsToJson } from "../../chain/payloadWithOutputs.ts";
import type { Block } from "../../store/blockDb.ts";
import { blockPage, branchBlocks } from "../../store/blockPages.ts";
import { requireJson } from "../accept.ts";
import { parseBranchBounds, parseChainParam, parsePageQuery, propertyOf } from "../params.ts";
import { pageJson, type RouteContext, sendJson } from "../routeContext.ts";

/** The JSON of a block. */
export function blockJson(block: Block): unknown {
  return {
    header: blockHeaderToObject(block.header),
    payloadWithOutputs: payloadWithOutputsToJson(block.payload),
  };
}

export function registerBlockRoutes(server: FastifyInstance, ctx: RouteContext): void {
  const { blocks } = ctx.node;
  server.get(`${ctx.base}/chain/:chain/block`, (request, reply) => {
    const chainId = parseChainParam(blocks, propertyOf(request.params, "chain"));
    requireJson(request.headers.accept);
    const q = parsePageQuery(request.query, ctx.pageLimits.headers);
    sendJson(reply, pageJson(blockPage(blocks, chainId, q), blockJson));
  });
  server.post(`${ctx.base}/chain/:chain/block/branch`, (request, reply) => {
    const chainId = parseChainParam(blocks, propertyOf(request.params, "chain"));
    requireJson(request.headers.accept);
    const q = parsePageQuery(request.query, ctx.pageLimits.headers);
    const bounds = parseBranchBounds(request.body);
    sendJson(reply, pageJson(branchBlocks(blocks, chainId, bounds, q), blockJson));
  });
}
