/**
 * Content negotiation by the `Accept` request header (spec "Header
 * encodings"): media ranges are tried in order of quality (ties keep their
 * order); a missing or empty header, `*\/*` and `application/*` take the
 * default. q=0 ranges and unknown types are skipped; when nothing is left the
 * request fails with 406.
 * @module
 */
import { ApiError, ApiErrorCode } from "./errors.ts";

type MediaRange = {
  readonly type: string;
  readonly subtype: string;
  readonly params: ReadonlyMap<string, string>;
  readonly q: number;
};

/** Parses an Accept header into media ranges, best first; malformed parts are skipped. */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(",")) {
    const [range, ...paramParts] = part.split(";");
    const m = /^\s*([a-z0-9!#$&^_.+-]+|\*)\/([a-z0-9!#$&^_.+-]+|\*)\s*$/i.exec(range ?? "");
    if (m === null) continue;
    const params = new Map<string, string>();
    let q = 1;
    for (const p of paramParts) {
      const eq = p.indexOf("=");
      if (eq < 0) continue;
      const key = p.slice(0, eq).trim().toLowerCase();
      const value = p
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, "$1");
      if (key === "q") {
        const n = Number(value);
        q = Number.isFinite(n) && n >= 0 && n <= 1 ? n : 0;
      } else {
        params.set(key, value.toLowerCase());
      }
    }
    ranges.push({
      type: (m[1] as string).toLowerCase(),
      subtype: (m[2] as string).toLowerCase(),
      params,
      q,
    });
  }
  return ranges.filter((r) => r.q > 0).sort((a, b) => b.q - a.q);
}

function acceptText(header: unknown): string | undefined {
  if (Array.isArray(header)) return header.join(",");
  return typeof header === "string" && header.trim() !== "" ? header : undefined;
}

function notAcceptable(accept: string, supported: readonly string[]): never {
  throw new ApiError(
    { code: ApiErrorCode.NotAcceptable, accept, supported },
    `Accept: ${accept} is not supported here; use ${supported.join(" or ")}`,
  );
}

/** How a header is written: base64url string, JSON object, or the binary bytes. */
export type HeaderEncoding = "base64" | "object" | "binary";

export const HEADER_OBJECT_TYPE = "application/json;blockheader-encoding=object";

/**
 * The header encoding the client accepts.
 * @param allowBinary true for endpoints that serve a single header.
 * @throws {ApiError} API_NOT_ACCEPTABLE (406).
 */
export function negotiateHeaderEncoding(header: unknown, allowBinary: boolean): HeaderEncoding {
  const accept = acceptText(header);
  if (accept === undefined) return "base64";
  for (const r of parseAccept(accept)) {
    if (r.type === "*" || (r.type === "application" && r.subtype === "*")) return "base64";
    if (r.type !== "application") continue;
    if (r.subtype === "json") {
      const encoding = r.params.get("blockheader-encoding");
      if (encoding === undefined) return "base64";
      if (encoding === "object") return "object";
    }
    if (r.subtype === "octet-stream" && allowBinary) return "binary";
  }
  return notAcceptable(accept, [
    "application/json",
    HEADER_OBJECT_TYPE,
    ...(allowBinary ? ["application/octet-stream"] : []),
  ]);
}

/**
 * Checks that the client accepts JSON (endpoints that answer JSON only).
 * @throws {ApiError} API_NOT_ACCEPTABLE (406).
 */
export function requireJson(header: unknown): void {
  const accept = acceptText(header);
  if (accept === undefined) return;
  for (const r of parseAccept(accept)) {
    if (
      r.type === "*" ||
      (r.type === "application" && (r.subtype === "*" || r.subtype === "json"))
    ) {
      return;
    }
  }
  notAcceptable(accept, ["application/json"]);
}
