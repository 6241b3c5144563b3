/**
 * Parsing of path parameters, query parameters and branch-bound bodies: the
 * HTTP boundary of the block routes. Malformed values fail with
 * API_BAD_REQUEST (400, naming the parameter); well-formed values that name
 * nothing (a chain the network does not have) fail in the store (404).
 *
 * Decisions where the spec is silent (docs/api.md): integers are canonical
 * decimals (`0` or no leading zeros) up to 2^53 − 1; a parameter given twice
 * is malformed; `limit` above the endpoint's maximum is lowered to it.
 * @module
 */
import { type Hash32, parseHash32 } from "../encoding/hash32.ts";
import { isNodeError } from "../errors/nodeError.ts";
import type { BlockDb } from "../store/blockDb.ts";
import type { BranchBounds, Cursor, PageQuery } from "../store/blockPages.ts";
import { ApiError, ApiErrorCode, badRequest } from "./errors.ts";

/** Most hashes in one page (reference service API). */
export const MAX_HASH_PAGE = 4096;
/** Most headers or blocks in one page (reference service API). */
export const MAX_HEADER_PAGE = 360;
/** Most lower and most upper bounds of a branch query (reference service API). */
export const MAX_BRANCH_BOUNDS = 32;

/** A property of a value that may not be an object. */
export function propertyOf(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  return (value as Record<string, unknown>)[key];
}

function single(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw badRequest(field, "given more than once");
  if (typeof value !== "string") throw badRequest(field, "expected a string");
  return value;
}

/** A canonical non-negative decimal integer ≤ 2^53 − 1, or undefined when absent. */
export function parseNaturalParam(value: unknown, field: string): number | undefined {
  const text = single(value, field);
  if (text === undefined) return undefined;
  if (!/^(0|[1-9][0-9]*)$/.test(text)) {
    throw badRequest(field, `expected a non-negative integer, got ${JSON.stringify(text)}`);
  }
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw badRequest(field, `${text} is too large`);
  return n;
}

/**
 * The `{chain}` path parameter.
 * @throws {ApiError} API_BAD_REQUEST when it is not a non-negative integer.
 * @throws {StoreError} STORE_UNKNOWN_CHAIN (404) when the network has no such chain.
 */
export function parseChainParam(db: BlockDb, value: unknown): number {
  const chainId = parseNaturalParam(value, "chain");
  if (chainId === undefined) throw badRequest("chain", "missing");
  db.requireChain(chainId);
  return chainId;
}

/** A block hash: 43 characters of unpadded base64url. */
export function parseHashParam(value: unknown, field: string): Hash32 {
  const text = single(value, field);
  if (text === undefined) throw badRequest(field, "missing");
  if (!/^[a-zA-Z0-9_-]{43}$/.test(text)) {
    throw badRequest(field, "expected a block hash (43 characters of a-z A-Z 0-9 _ -)");
  }
  try {
    return parseHash32(text, field);
  } catch (e) {
    // 43 characters whose last one carries bits beyond the 32 bytes.
    if (isNodeError(e)) throw badRequest(field, "not a canonical base64url block hash");
    throw e;
  }
}

/** The `next` cursor: `inclusive:<hash>` or `exclusive:<hash>` (reference §8.4). */
export function parseCursorParam(value: unknown): Cursor | undefined {
  const text = single(value, "next");
  if (text === undefined) return undefined;
  const colon = text.indexOf(":");
  if (colon < 0) throw badRequest("next", "missing ':' in next item");
  const kind = text.slice(0, colon);
  if (kind !== "inclusive" && kind !== "exclusive") {
    throw badRequest(
      "next",
      `unrecognized next item ${JSON.stringify(kind)}; use inclusive:<hash> or exclusive:<hash>`,
    );
  }
  return { inclusive: kind === "inclusive", hash: parseHashParam(text.slice(colon + 1), "next") };
}

/** `limit`, `next`, `minheight`, `maxheight` of a list endpoint; `limit` defaults to and is clamped by `max`. */
export function parsePageQuery(query: unknown, max: number): PageQuery {
  const limit = parseNaturalParam(propertyOf(query, "limit"), "limit");
  return {
    limit: Math.min(limit ?? max, max),
    next: parseCursorParam(propertyOf(query, "next")),
    minHeight: parseNaturalParam(propertyOf(query, "minheight"), "minheight"),
    maxHeight: parseNaturalParam(propertyOf(query, "maxheight"), "maxheight"),
  };
}

function boundList(body: unknown, key: "lower" | "upper"): Hash32[] {
  const value = propertyOf(body, key);
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badRequest(key, "expected an array of block hashes");
  if (value.length > MAX_BRANCH_BOUNDS) {
    throw new ApiError(
      { code: ApiErrorCode.BranchBoundsExceeded, bound: key, limit: MAX_BRANCH_BOUNDS },
      `${key} branch bound limit exceeded. Only ${MAX_BRANCH_BOUNDS} values are supported.`,
    );
  }
  return value.map((h, i) => parseHashParam(h, `${key}[${i}]`));
}

/**
 * The body of a branch query: `{"lower": [hash…], "upper": [hash…]}`, both
 * optional. An absent body is no bounds (an empty result).
 * @throws {ApiError} API_BAD_REQUEST, API_BRANCH_BOUNDS_EXCEEDED (400).
 */
export function parseBranchBounds(body: unknown): BranchBounds {
  if (body === undefined || body === null) return { lower: [], upper: [] };
  if (typeof body !== "object" || Array.isArray(body)) {
    throw badRequest("body", 'expected a JSON object {"lower": [...], "upper": [...]}');
  }
  for (const key of Object.keys(body)) {
    if (key !== "lower" && key !== "upper") {
      // Quoted unless a plain word, so that "" and " " are visible in the text.
      const shown = /^\w{1,40}$/.test(key) ? key : JSON.stringify(key.slice(0, 40));
      throw badRequest(shown, 'unknown key; branch bounds take "lower" and "upper"');
    }
  }
  return { lower: boundList(body, "lower"), upper: boundList(body, "upper") };
}
