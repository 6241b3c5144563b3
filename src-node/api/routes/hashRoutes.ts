/**
 * Block hashes of a chain: `GET {base_url}/chain/{chain}/hash` (ascending,
 * orphans included) and `POST {base_url}/chain/{chain}/hash/branch`
 * (descending between branch bounds). Pages of at most 4096 hashes. These
 * answer JSON whatever the Accept header says (the spec lists no 406 here).
 * @module
 */
import type { FastifyInstance } from "fastify";
import { branchHashes } from "../../store/blockPages.ts";
import { joinedHeaderPage } from "../../store/joinedPages.ts";
import { parseBranchBounds, parseChainParam, parsePageQuery, propertyOf } from "../params.ts";
import { type RouteContext, sendJoinedPage, sendPageText } from "../routeContext.ts";

export function registerHashRoutes(server: FastifyInstance, ctx: RouteContext): void {
  const { blocks } = ctx.node;
  server.get(`${ctx.base}/chain/:chain/hash`, (request, reply) => {
    const chainId = parseChainParam(blocks, propertyOf(request.params, "chain"));
    const q = parsePageQuery(request.query, ctx.pageLimits.hashes);
    sendJoinedPage(reply, joinedHeaderPage(blocks, chainId, q, "hash"));
  });
  server.post(`${ctx.base}/chain/:chain/hash/branch`, (request, reply) => {
    const chainId = parseChainParam(blocks, propertyOf(request.params, "chain"));
    const q = parsePageQuery(request.query, ctx.pageLimits.hashes);
    const bounds = parseBranchBounds(request.body);
    sendPageText(reply, branchHashes(blocks, chainId, bounds, q), (h) => `"${h}"`);
  });
}
