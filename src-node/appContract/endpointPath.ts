/**
 * The request path of an app route's entry (`appRoute.ts`), and the types that say what fills
 * it: each `:name` segment of the route, and the optional query parameters it lists.
 *
 * Browser-safe: the renderer imports it.
 * @module
 */
import type { AppRoute } from "./appRoute.ts";

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

/** The request path of an entry: each `:name` filled (encoded), the query appended. */
export function endpointPath<R extends string, Q extends string>(
  e: Pick<AppRoute<R, Q, unknown>, "route" | "query">,
  params: EndpointParams<R, Q>,
): `/${string}` {
  const values = params as Record<string, string | number | undefined>;
  const path = e.route.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const v = values[name];
    // The types ask for every name: a missing one is a bug of the caller.
    if (v === undefined) throw new Error(`${e.route}: no value for :${name}`);
    return encodeURIComponent(String(v));
  });
  const query = e.query
    .filter((q) => values[q] !== undefined)
    .map((q) => `${q}=${encodeURIComponent(String(values[q]))}`)
    .join("&");
  return (query === "" ? path : `${path}?${query}`) as `/${string}`;
}
