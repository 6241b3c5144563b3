/**
 * What every route module receives: the node's services, `{base_url}`'s path
 * and the server's open event streams; and the helpers routes share to
 * answer JSON and pages.
 * @module
 */
import type { FastifyReply } from "fastify";
import { cursorText, type Page } from "../store/blockPages.ts";
import { type JoinedPage, pageHead, pageTail } from "../store/joinedPages.ts";
import type { ApiServices } from "./apiServices.ts";
import type { AppToken } from "./appToken.ts";
import type { EventStreams } from "./eventStream.ts";

export type RouteContext = {
  readonly node: ApiServices;
  /** `/ledger/0.0/{network}` */
  readonly base: string;
  readonly streams: EventStreams;
  /** Most items per page: hashes, and headers or blocks. */
  readonly pageLimits: PageLimits;
  /** The launch's app token (`/app/api/*`, appToken.ts). */
  readonly appToken: AppToken;
};

export type PageLimits = { readonly hashes: number; readonly headers: number };

export { cursorText };

/** The result page JSON: `limit` is the number of items returned (never more than asked). */
export function pageJson<T, R>(
  page: Page<T>,
  item: (t: T) => R,
): { limit: number; items: R[]; next: string | null } {
  return { limit: page.items.length, items: page.items.map(item), next: cursorText(page.next) };
}

/**
 * Sends a result page built as text from each item's JSON text (stored
 * header texts, hashes): the same bytes as {@link sendJson} of
 * {@link pageJson}, without an object tree or a serializer walking it.
 */
export function sendPageText<T>(
  reply: FastifyReply,
  page: Page<T>,
  itemText: (t: T) => string,
  contentType = "application/json; charset=utf-8",
): void {
  sendJoinedPage(
    reply,
    {
      count: page.items.length,
      items: Buffer.from(page.items.map(itemText).join(",")),
      next: page.next,
    },
    contentType,
  );
}

/**
 * Sends a result page whose items are already joined JSON bytes: the body
 * is written once into one buffer and sent as it is (Fastify adds no
 * serializer and no encoding for a Buffer; the content type is set here so
 * its parameters stay as negotiated). A page whose body SQLite wrote whole
 * (`body`) is sent without a copy.
 */
export function sendJoinedPage(
  reply: FastifyReply,
  page: JoinedPage,
  contentType = "application/json; charset=utf-8",
): void {
  let body = page.body;
  if (body === undefined) {
    const head = pageHead(page.count);
    const tail = pageTail(page.next);
    // Cursors are base64url hashes: head and tail are ASCII.
    body = Buffer.allocUnsafe(head.length + page.items.length + tail.length);
    let at = body.write(head, 0, "latin1");
    at += page.items.copy(body, at);
    body.write(tail, at, "latin1");
  }
  reply.code(200).header("content-type", contentType).send(body);
}

/** Sends a JSON body, serialized here so the content type can carry parameters. */
export function sendJson(
  reply: FastifyReply,
  value: unknown,
  contentType = "application/json; charset=utf-8",
): void {
  // Sent as bytes: for text bodies Fastify rewrites the content type's parameters
  // (quotes them, adds a charset), which would change the negotiated media type.
  reply
    .code(200)
    .header("content-type", contentType)
    .send(Buffer.from(JSON.stringify(value)));
}
