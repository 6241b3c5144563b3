/**
 * `GET {base_url}/header/updates`: server-sent events, one per block added
 * to the best cut, all chains, in the order they were added (reference
 * chainweb-api.md §8.7): `event:BlockHeader` with data
 * `{"header": <header object>, "txCount": n, "powHash": <64 hex>, "target": <64 hex>}`.
 * Blocks that leave the best cut in a fork switch are not announced; the
 * blocks of the new branch are.
 *
 * One cut listener serves every open stream: a cut change's events are
 * encoded once, as one HTTP chunk, and the same bytes written to every
 * subscriber's socket in one call (1,000 streams cost one encoding and
 * 1,000 writes, `npm run bench -- headers` `updates_fanout_ms`).
 * @module
 */
import type { FastifyInstance } from "fastify";
import type { BlockHeader } from "../../chain/blockHeader.ts";
import { blockHeaderToObject } from "../../chain/blockHeaderObject.ts";
import { powHash, powHashHex } from "../../chain/pow.ts";
import type { BlockDb } from "../../store/blockDb.ts";
import { commonHeaders } from "../commonHeaders.ts";
import { corsHeaders } from "../cors.ts";
import { type EventStream, eventsFrame } from "../eventStream.ts";
import type { RouteContext } from "../routeContext.ts";

/** The data of one header event. */
export function headerEventData(blocks: BlockDb, header: BlockHeader): string {
  return JSON.stringify({
    header: blockHeaderToObject(header),
    txCount: blocks.store.transactionCount(header.payloadHash) ?? 0,
    powHash: powHashHex(powHash(header)),
    target: header.target.toString(16).padStart(64, "0"),
  });
}

export function registerHeaderUpdatesRoute(server: FastifyInstance, ctx: RouteContext): void {
  const { blocks } = ctx.node;
  const subscribers = new Set<EventStream>();
  let unsubscribe: (() => void) | null = null;
  const announce = (added: readonly BlockHeader[]) => {
    if (added.length === 0) return;
    const frame = eventsFrame(
      added.map((h) => ({ event: "BlockHeader", data: headerEventData(blocks, h) })),
    );
    for (const s of subscribers) s.sendFrame(frame);
  };
  server.get(`${ctx.base}/header/updates`, { exposeHeadRoute: false }, (request, reply) => {
    const stream = ctx.streams.open(request, reply, {
      ...commonHeaders(request.raw, ctx.node),
      ...corsHeaders(request),
    });
    subscribers.add(stream);
    unsubscribe ??= blocks.onCutChange((change) => announce(change.added));
    stream.onEnd(() => {
      subscribers.delete(stream);
      if (subscribers.size === 0 && unsubscribe !== null) {
        unsubscribe();
        unsubscribe = null;
      }
    });
  });
}
