/**
 * `POST /app/api/app-code`: a new one-time code that opens the app in a browser, good for
 * five minutes (docs/node.md "The app token"; the node's src-node/api/routes/appCodeRoutes.ts).
 * `weft app-url` is its client; the app lists it so that its endpoint contract names every
 * route of `/app/api/*` (app/appEndpoints.ts). The address to open is
 * `<the node's origin>/app/?code=<code>`.
 * @module
 */
import { type Decoded, decode, record, string } from "./decode.ts";

export type AppCode = {
  /** 32 characters of base64url. */
  readonly code: string;
  /** ISO 8601: when the code stops working (unless it was used before). */
  readonly expiresAt: string;
};

export function parseAppCode(raw: unknown): Decoded<AppCode> {
  return decode(raw, (x) => {
    const o = record(x, "app code");
    return { code: string(o.code, "code"), expiresAt: string(o.expiresAt, "expiresAt") };
  });
}
