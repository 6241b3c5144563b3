/**
 * Errors of the HTTP API: malformed request values, unsupported Accept
 * values, too many branch bounds, unknown routes, and a server that cannot
 * listen, and a UI that has not been built; requests the browser guard
 * refuses (browserGuard.ts). Their HTTP statuses are in errorStatus.ts.
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";

export const ApiErrorCode = {
  BadRequest: "API_BAD_REQUEST",
  NotAcceptable: "API_NOT_ACCEPTABLE",
  BranchBoundsExceeded: "API_BRANCH_BOUNDS_EXCEEDED",
  RouteNotFound: "API_ROUTE_NOT_FOUND",
  ListenFailed: "API_LISTEN_FAILED",
  NotListening: "API_NOT_LISTENING",
  UiNotBuilt: "API_UI_NOT_BUILT",
  HostForbidden: "API_HOST_FORBIDDEN",
  OriginForbidden: "API_ORIGIN_FORBIDDEN",
  UnsupportedMediaType: "API_UNSUPPORTED_MEDIA_TYPE",
} as const;

export type ApiErrorCodeValue = (typeof ApiErrorCode)[keyof typeof ApiErrorCode];

export type ApiErrorType =
  /** `field` names the path parameter, query parameter or body part (`limit`, `next`, `upper[2]`, …). */
  | { code: typeof ApiErrorCode.BadRequest; field: string; reason: string }
  | { code: typeof ApiErrorCode.NotAcceptable; accept: string; supported: readonly string[] }
  | { code: typeof ApiErrorCode.BranchBoundsExceeded; bound: "lower" | "upper"; limit: number }
  | { code: typeof ApiErrorCode.RouteNotFound; method: string; url: string }
  /** `flag`: the option naming the port (`port`, `p2p.port`); `inUse`: another program has it. */
  | {
      code: typeof ApiErrorCode.ListenFailed;
      host: string;
      port: number;
      reason: string;
      inUse?: boolean;
      flag?: string;
    }
  | { code: typeof ApiErrorCode.NotListening }
  /** `rendererDir`: the folder that should hold the built UI (index.html). */
  | { code: typeof ApiErrorCode.UiNotBuilt; rendererDir: string }
  /** `host`: the Host header as given (browserGuard.ts). */
  | { code: typeof ApiErrorCode.HostForbidden; host: string }
  | { code: typeof ApiErrorCode.OriginForbidden; origin: string }
  | {
      code: typeof ApiErrorCode.UnsupportedMediaType;
      contentType: string;
      expected: string;
    };

export class ApiError extends NodeError<ApiErrorType> {}

/**
 * When `e` is the node failing to listen because another program (another node) has the
 * port: the port and the option that names it, for the host to say how to choose another
 * (`weft node --port`, the desktop's settings); else null.
 */
export function portInUse(e: unknown): { readonly port: number; readonly flag: string } | null {
  if (!(e instanceof ApiError)) return null;
  const t = e.type;
  return t.code === ApiErrorCode.ListenFailed && t.inUse === true
    ? { port: t.port, flag: t.flag ?? "port" }
    : null;
}

/** The system's word for a port another program listens on. */
export function isAddressInUse(e: unknown): boolean {
  return (e as NodeJS.ErrnoException | undefined)?.code === "EADDRINUSE";
}

/** An API_BAD_REQUEST error whose message is `field: reason`. */
export function badRequest(field: string, reason: string): ApiError {
  return new ApiError({ code: ApiErrorCode.BadRequest, field, reason }, `${field}: ${reason}`);
}

/**
 * Errors of the app's private API `/app/api/*` (appApi.ts): requests from
 * elsewhere than the app on this computer, without the app token, with a
 * body that is not JSON or does not match the route's schema; the code
 * an unexpected failure is answered with there; and a restart the node's
 * host cannot do.
 */
export const AppErrorCode = {
  Forbidden: "APP_FORBIDDEN",
  TokenRequired: "APP_TOKEN_REQUIRED",
  NotJson: "APP_NOT_JSON",
  BadRequest: "APP_BAD_REQUEST",
  Internal: "APP_INTERNAL",
  KeystoreUnreadable: "APP_KEYSTORE_UNREADABLE",
  RestartUnavailable: "APP_RESTART_UNAVAILABLE",
  SignRequestGone: "APP_SIGN_REQUEST_GONE",
  SignRequestWithdrawn: "APP_SIGN_REQUEST_WITHDRAWN",
  DappPortUnavailable: "APP_DAPP_PORT_UNAVAILABLE",
} as const;

export type AppErrorCodeValue = (typeof AppErrorCode)[keyof typeof AppErrorCode];

export type AppErrorType =
  | { code: typeof AppErrorCode.Forbidden; reason: string }
  | { code: typeof AppErrorCode.TokenRequired }
  | { code: typeof AppErrorCode.NotJson; contentType: string }
  /** `field` names the body member (`threads`, `publicKeys.1`) or `body`. */
  | { code: typeof AppErrorCode.BadRequest; field: string; reason: string }
  | { code: typeof AppErrorCode.Internal }
  /** The stored `wallet/keystore.json` is not JSON (changed outside the app). */
  | { code: typeof AppErrorCode.KeystoreUnreadable; file: string }
  /** The node's host cannot restart it (`weft node`: no supervisor; nodeRestart.ts). */
  | { code: typeof AppErrorCode.RestartUnavailable }
  /** A dapp's signing request answered that is no longer waiting (dappSigning/). */
  | {
      code: typeof AppErrorCode.SignRequestGone;
      id: string;
      reason: "signed" | "refused" | "timedOut" | "closed" | "unknown";
    }
  /** A dapp's signing request answered after its dapp withdrew it (closed its connection). */
  | { code: typeof AppErrorCode.SignRequestWithdrawn; id: string }
  /** The dapp signing API cannot listen on the port asked for (in use, no permission). */
  | { code: typeof AppErrorCode.DappPortUnavailable; port: number; reason: string };

export class AppError extends NodeError<AppErrorType> {}
