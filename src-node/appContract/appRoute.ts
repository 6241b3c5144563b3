/**
 * One route of the app's private API (`/app/api/*`) as data, the part the node and the UI
 * share (issue 37): its method, its route as Fastify registers it (`:name` for a path
 * parameter), the query parameters it reads, the type of the JSON body it takes and how long
 * the UI waits for it. The node registers each route from its entry (src-node/api/
 * registerAppRoute.ts); the UI adds the parser of the answer (renderer/src/api/endpoint.ts).
 * Every entry is in the one table, `appRoutes.ts`.
 *
 * Browser-safe: the renderer imports it.
 * @module
 */

export type EndpointMethod = "GET" | "POST" | "PUT" | "DELETE";

/** Where every route of the app's private API lives. */
export type AppApiPath = `/app/api/${string}`;

export type AppRoute<R extends string, Q extends string, Body> = {
  readonly method: EndpointMethod;
  /** The route as Fastify registers it: `:name` for a path parameter. */
  readonly route: R;
  /** The query parameters the route reads (their only names, when the node refuses others). */
  readonly query: readonly Q[];
  /**
   * Phantom: the type of the JSON body (`undefined`: none); never set. The node checks a body
   * with the route's JSON schema, and its handler reads it as this type.
   */
  readonly body?: Body;
  /** For slow routes (a backup's check): the client's default otherwise. */
  readonly timeoutMs?: number;
};

/** Any entry, for lists of them. */
// biome-ignore lint/suspicious/noExplicitAny: a list holds entries of every body type
export type AnyAppRoute = AppRoute<string, string, any>;

/** Declares an entry; the generics come from the route text and the body's type. */
export function appRoute<R extends AppApiPath, Body = undefined, Q extends string = never>(e: {
  readonly method: EndpointMethod;
  readonly route: R;
  readonly query?: readonly Q[];
  /** The body's type, as `bodyType<T>()`: none when absent. */
  readonly body?: Body;
  readonly timeoutMs?: number;
}): AppRoute<R, Q, Body> {
  // The body is a type only: the value `bodyType` gave is not kept.
  const { body: _type, ...entry } = e;
  return { query: [], ...entry } as AppRoute<R, Q, Body>;
}

/** Names a body's type in {@link appRoute} (a value only the type checker reads). */
export function bodyType<B>(): B {
  return undefined as B;
}
