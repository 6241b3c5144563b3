/**
 * Registers one route of the app's private API (`/app/api/*`) from its entry in the table the
 * node and the UI share (appContract/appRoutes.ts; issue 37): the method and the URL are the
 * entry's, the handler reads the body as the entry's body type and the path parameters by the
 * route's `:name` segments, and the query string's JSON schema, when the route refuses names it
 * does not read, is built from the entry's query names. Called inside the app API plugin
 * (appApi.ts), which guards the route and refuses a POST or PUT without a body schema.
 * @module
 */
import type {
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteHandlerMethod,
} from "fastify";
import type { AppRoute } from "../appContract/appRoute.ts";
import type { RouteParamNames } from "../appContract/endpointPath.ts";
import { type BodyParser, parsedBody } from "./parsedBody.ts";

/** What the handler's request carries: the body as the entry's type, the route's parameters. */
export type AppRouteGeneric<R extends string, Body> = {
  Body: Body;
  Params: { readonly [K in RouteParamNames<R>]: string };
};

export type AppRouteOptions<R extends string, Body> = {
  /** The body's JSON schema; every POST and PUT route has one (appApi.ts refuses it otherwise). */
  readonly bodySchema?: object;
  /**
   * Instead of a schema, the body's one parser (the wallet's stored files: parsedBody.ts); the
   * handler's `request.body` is what it read. Not with `bodySchema` or `strictQuery`: the
   * parser is the route's only validator.
   */
  readonly bodyParser?: BodyParser<Body>;
  /** The largest body in bytes, when not the server's. */
  readonly bodyLimit?: number;
  /**
   * Refuse a query name the entry does not list, or one given twice (400 APP_BAD_REQUEST,
   * appApi.ts): the query string's JSON schema, every listed name a string. Without it the
   * handler reads the names it needs.
   */
  readonly strictQuery?: boolean;
  readonly handler: RouteHandlerMethod<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    AppRouteGeneric<R, Body>
  >;
};

/** The query string's JSON schema of an entry: its names only, each once, as text. */
export function querySchemaOf(names: readonly string[]): object {
  return {
    type: "object",
    additionalProperties: false,
    properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])),
  };
}

export function registerAppRoute<R extends string, Q extends string, Body>(
  scope: FastifyInstance,
  entry: AppRoute<R, Q, Body>,
  options: AppRouteOptions<R, Body>,
): void {
  if (options.bodyParser !== undefined) {
    if (options.bodySchema !== undefined || options.strictQuery === true) {
      throw new Error(
        `${entry.method} ${entry.route}: a body parser is the route's only validator`,
      );
    }
    scope.route<AppRouteGeneric<R, Body>>({
      method: entry.method,
      url: entry.route,
      ...parsedBody(options.bodyParser),
      ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
      handler: options.handler,
    });
    return;
  }
  const schema = {
    ...(options.bodySchema === undefined ? {} : { body: options.bodySchema }),
    ...(options.strictQuery === true ? { querystring: querySchemaOf(entry.query) } : {}),
  };
  scope.route<AppRouteGeneric<R, Body>>({
    method: entry.method,
    url: entry.route,
    ...(Object.keys(schema).length === 0 ? {} : { schema }),
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    handler: options.handler,
  });
}
