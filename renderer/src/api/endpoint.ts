/**
 * One endpoint of the node's app API as data (issue 37 item 3): its method, its route as the
 * server registers it (`/app/api/backup/jobs/:id`), the query parameters it reads, the type
 * of the body it takes and the parser of its reply. The renderer's calls are made from an
 * entry (`callEndpoint`), and test/renderer/endpointContract.test.ts checks every entry
 * against a real node: its route exists, and its answer parses with the entry's parser. The
 * full list is `app/appEndpoints.ts` (the entries sit beside their parsers: shared ones in
 * `api/appEndpoints.ts`, a feature's in its `endpoints.ts`). Every `/app/api/*` request of
 * the UI is made from an entry, by `callEndpoint` or, where a caller reads the answer its own
 * way, `callEndpointWith`; no other file writes an app API path
 * (test/renderer/appApiPaths.test.ts).
 *
 * Browser-safe; the server does not import it (src-node/layers.ts: `api/` imports no
 * renderer code), so the test is what ties the two.
 * @module
 */
import type { ClientResult } from "./clientError.ts";
import type { Decoded } from "./decode.ts";
import { type NodeClient, type NodePath, type Parse, readReply } from "./nodeClient.ts";

export type EndpointMethod = "GET" | "POST" | "PUT" | "DELETE";

/** The names of a route's `:name` segments. */
export type RouteParamNames<R extends string> = R extends `${string}:${infer P}/${infer Rest}`
  ? P | RouteParamNames<`/${Rest}`>
  : R extends `${string}:${infer P}`
    ? P
    : never;

/** What fills a route: each `:name` segment, and the optional query parameters. */
export type EndpointParams<R extends string, Q extends string> = {
  readonly [K in RouteParamNames<R>]: string;
} & { readonly [K in Q]?: string | number | undefined };

/** A reply with no body (204): read as `null`. */
export const NO_CONTENT = "no-content" as const;

export type Endpoint<R extends string, Q extends string, Body, Reply> = {
  readonly method: EndpointMethod;
  /** The route as Fastify registers it: `:name` for a path parameter. */
  readonly route: R & NodePath;
  /** The query parameters the route reads (its JSON schema refuses others). */
  readonly query: readonly Q[];
  /**
   * The reply's parser, or {@link NO_CONTENT}. The body is only a type here (`Body`): the
   * node checks it with the route's JSON schema (src-node/api/appApi.ts).
   */
  readonly reply: Parse<Reply> | typeof NO_CONTENT;
  /** Phantom: the type of the JSON body (`undefined`: none). Never set. */
  readonly body?: Body;
  /** For slow routes (a backup's check): the client's default otherwise. */
  readonly timeoutMs?: number;
};

/** Any entry, for lists of them. */
// biome-ignore lint/suspicious/noExplicitAny: a list holds entries of every shape
export type AnyEndpoint = Endpoint<string, string, any, any>;

/** Declares an entry; the generics come from the route text and the parser. */
export function endpoint<R extends NodePath, Reply, Body = undefined, Q extends string = never>(e: {
  readonly method: EndpointMethod;
  readonly route: R;
  readonly query?: readonly Q[];
  readonly reply: Parse<Reply> | typeof NO_CONTENT;
  /** The body's type, as `bodyType<T>()`: none when absent. */
  readonly body?: Body;
  readonly timeoutMs?: number;
}): Endpoint<R, Q, Body, Reply> {
  return { query: [], ...e } as Endpoint<R, Q, Body, Reply>;
}

/** Names a body's type in {@link endpoint} (a value only the type checker reads). */
export function bodyType<B>(): B {
  return undefined as B;
}

/** The request path of an entry: each `:name` filled (encoded), the query appended. */
export function endpointPath<R extends string, Q extends string>(
  e: Endpoint<R, Q, unknown, unknown>,
  params: EndpointParams<R, Q>,
): NodePath {
  const values = params as Record<string, string | number | undefined>;
  const path = e.route.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`${e.route}: no value for :${name}`);
    return encodeURIComponent(String(v));
  });
  const query = e.query
    .filter((q) => values[q] !== undefined)
    .map((q) => `${q}=${encodeURIComponent(String(values[q]))}`)
    .join("&");
  return (query === "" ? path : `${path}?${query}`) as NodePath;
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
 */
export type BodyArgs<Body> = [Body] extends [undefined] ? [] : [body: Body];

/** Calls an entry with the one client: its path filled, its body sent, its reply parsed. */
export function callEndpoint<R extends string, Q extends string, Body, Reply>(
  client: Pick<NodeClient, "request" | "url">,
  e: Endpoint<R, Q, Body, Reply>,
  params: EndpointParams<R, Q>,
  ...body: BodyArgs<Body>
): Promise<ClientResult<Reply>> {
  return send(client, e, params, body, (t) => readEndpointReply(e, t) as Decoded<Reply>);
}

/**
 * Calls an entry as {@link callEndpoint} does (its method, route, query, body type and
 * timeout), but reads the JSON answer with `parse` instead of the entry's parser: for a caller
 * that reads less of the answer (the wallet's "is a backup due" of the backup overview) or
 * reads it into its own shape (a history entry from the explorer's transaction). The entry's
 * parser stays the contract the test checks against a real node.
 */
export function callEndpointWith<R extends string, Q extends string, Body, T>(
  client: Pick<NodeClient, "request" | "url">,
  e: Endpoint<R, Q, Body, unknown>,
  params: EndpointParams<R, Q>,
  parse: Parse<T>,
  ...body: BodyArgs<Body>
): Promise<ClientResult<T>> {
  return send(client, e, params, body, (t) => readEndpointReply({ reply: parse }, t) as Decoded<T>);
}

async function send<R extends string, Q extends string, Body, T>(
  client: Pick<NodeClient, "request" | "url">,
  e: Endpoint<R, Q, Body, unknown>,
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
