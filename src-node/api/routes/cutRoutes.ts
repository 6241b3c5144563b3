/**
 * `GET {base_url}/cut[?maxheight=N]`: the best cut as JSON (chain/cutJson.ts).
 * `maxheight` is a cut height (a sum over chains, reference §5.2): each
 * chain is rewound to block height floor(N / number of chains); a value at
 * or above the current cut height gives the current cut.
 * @module
 */
import type { FastifyInstance } from "fastify";
import { cutToJson } from "../../chain/cutJson.ts";
import { parseNaturalParam, propertyOf } from "../params.ts";
import { type RouteContext, sendJson } from "../routeContext.ts";

export function registerCutRoutes(server: FastifyInstance, ctx: RouteContext): void {
  const { blocks, version } = ctx.node;
  server.get(`${ctx.base}/cut`, (request, reply) => {
    const maxHeight = parseNaturalParam(propertyOf(request.query, "maxheight"), "maxheight");
    const cut = maxHeight === undefined ? blocks.cut() : blocks.cutAtMost(maxHeight);
    sendJson(reply, cutToJson(cut, version));
  });
}
