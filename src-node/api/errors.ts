/**
 * Errors of the HTTP API: malformed request values, unsupported Accept
 * values, too many branch bounds, unknown routes, and a server that cannot
 * listen, and a UI that has not been built. Their HTTP statuses are in
 * errorStatus.ts.
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
} as const;

export type ApiErrorCodeValue = (typeof ApiErrorCode)[keyof typeof ApiErrorCode];

export type ApiErrorType =
  /** `field` names the path parameter, query parameter or body part (`limit`, `next`, `upper[2]`, …). */
  | { code: typeof ApiErrorCode.BadRequest; field: string; reason: string }
  | { code: typeof ApiErrorCode.NotAcceptable; accept: string; supported: readonly string[] }
  | { code: typeof ApiErrorCode.BranchBoundsExceeded; bound: "lower" | "upper"; limit: number }
  | { code: typeof ApiErrorCode.RouteNotFound; method: string; url: string }
  | { code: typeof ApiErrorCode.ListenFailed; host: string; port: number; reason: string }
  | { code: typeof ApiErrorCode.NotListening }
  /** `rendererDir`: the folder that should hold the built UI (index.html). */
  | { code: typeof ApiErrorCode.UiNotBuilt; rendererDir: string };

export class ApiError extends NodeError<ApiErrorType> {}

/** An API_BAD_REQUEST error whose message is `field: reason`. */
export function badRequest(field: string, reason: string): ApiError {
  return new ApiError({ code: ApiErrorCode.BadRequest, field, reason }, `${field}: ${reason}`);
}
