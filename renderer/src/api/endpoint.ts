/**
 * One endpoint of the node's app API as the UI calls it (issue 37): the route's entry the node
 * and the UI share (src-node/appContract/appRoutes.ts: method, route, query parameters, body
 * type, timeout) with the parser of its reply. The renderer's calls are made from an entry
 * (`callEndpoint`), and test/renderer/endpointContract.test.ts checks every entry against a
 * real node: its route exists, and its answer parses with the entry's parser. The full list is
 * `app/appEndpoints.ts` (the entries sit beside their parsers: shared ones in
 * `api/appEndpoints.ts`, a feature's in its `endpoints.ts`). Every `/app/api/*` request of
 * the UI is made from an entry, by `callEndpoint` or, where a caller reads the answer its own
 * way, `callEndpointWith`; no other file writes an app API path
 * (test/renderer/appApiPaths.test.ts).
 * @module
 */
import type { AppRoute } from "../../../src-node/appContract/appRoute.ts";
import { type EndpointParams, endpointPath } from "../../../src-node/appContract/endpointPath.ts";
import type { ClientResult } from "./clientError.ts";
import type { Decoded } from "./decode.ts";
import { type NodeClient, type Parse, readReply } from "./nodeClient.ts";

/** A reply with no body (204): read as `null`. */
export const NO_CONTENT = "no-content" as const;

export type Endpoint<R extends string, Q extends string, Body, Reply> = AppRoute<R, Q, Body> & {
  /** The reply's parser, or {@link NO_CONTENT}. */
  readonly reply: Parse<Reply> | typeof NO_CONTENT;
};

/** Any entry, for lists of them. */
// biome-ignore lint/suspicious/noExplicitAny: a list holds entries of every shape
export type AnyEndpoint = Endpoint<string, string, any, any>;

/** An entry: the shared route (its body type included) with the parser of its reply. */
export function endpoint<R extends string, Q extends string, B, Reply>(
  route: AppRoute<R, Q, B>,
  reply: Parse<Reply> | typeof NO_CONTENT,
): Endpoint<R, Q, B, Reply> {
  return { ...route, reply } as Endpoint<R, Q, B, Reply>;
}

/** Reads a reply's text as the entry says: its JSON through the parser, or nothing. */
export function readEndpointReply<Reply>(
  e: { readonly reply: Parse<Reply> | typeof NO_CONTENT },
  text: string,
): Decoded<Reply | null> {
  if (e.reply === NO_CONTENT) {
    return text === "" ? { ok: true, value: null } : { ok: false, error: "expected no body" };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: "not JSON" };
  }
  return e.reply(json);
}

/** The reply type of an entry: `null` for a {@link NO_CONTENT} one. */
export type ReplyOf<E> =
  E extends Endpoint<string, string, unknown, infer Reply>
    ? E["reply"] extends typeof NO_CONTENT
      ? null
      : Reply
    : never;

/**
 * The body argument of a call: none when the entry takes none, else one of the body's type
 * (not distributed over a union: a body of `{id} | {folder}` is one argument of that union).
 * The calls take it as `BodyArgs<NoInfer<Body>>`: the body's type is the entry's, never one
 * inferred from the argument (a body passed to an entry that takes none is refused).
 */
export type BodyArgs<Body> = [Body] extends [undefined] ? [] : [body: Body];

/** Calls an entry with the one client: its path filled, its body sent, its reply parsed. */
export function callEndpoint<R extends string, Q extends string, Body, Reply>(
  client: Pick<NodeClient, "request" | "url">,
  e: Endpoint<R, Q, Body, Reply>,
  params: EndpointParams<R, Q>,
  ...body: BodyArgs<NoInfer<Body>>
): Promise<ClientResult<Reply>> {
  return send(client, e, params, body, (t) => readEndpointReply(e, t) as Decoded<Reply>);
}

/**
 * Calls a route of the shared table (or an entry) as {@link callEndpoint} does (its method,
 * route, query, body type and timeout), but reads the JSON answer with `parse` instead of the
 * entry's parser: for a caller that reads less of the answer (the wallet's "is a backup due"
 * of the backup overview) or reads it into its own shape (a history entry from the explorer's
 * transaction). It takes the table's route, so a feature reading another's route needs only
 * `appContract/`, not that feature; the route's entry and parser stay the contract the test
 * checks against a real node.
 */
export function callEndpointWith<R extends string, Q extends string, Body, T>(
  client: Pick<NodeClient, "request" | "url">,
  e: AppRoute<R, Q, Body>,
  params: EndpointParams<R, Q>,
  parse: Parse<T>,
  ...body: BodyArgs<NoInfer<Body>>
): Promise<ClientResult<T>> {
  return send(client, e, params, body, (t) => readEndpointReply({ reply: parse }, t) as Decoded<T>);
}

async function send<R extends string, Q extends string, Body, T>(
  client: Pick<NodeClient, "request" | "url">,
  e: AppRoute<R, Q, Body>,
  params: EndpointParams<R, Q>,
  body: readonly unknown[],
  read: (text: string) => Decoded<T>,
): Promise<ClientResult<T>> {
  const path = endpointPath(e, params);
  const text = await client.request(e.method, path, {
    ...(body.length === 0 ? {} : { body: body[0] }),
    ...(e.timeoutMs === undefined ? {} : { timeoutMs: e.timeoutMs }),
  });
  return readReply(text, client.url(path), read);
}
