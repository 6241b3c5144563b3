/**
 * The app's start-up configuration, served by the node next to the built renderer at
 * `GET /app/config.json` (docs/desktop.md §3.1): which network the node runs and where its
 * API lives. The renderer calls the API on its own origin, at the path of `baseUrl`.
 * @module
 */
import { type Decoded, decode, record, reject, string } from "./decode.ts";

export type AppConfig = {
  /** e.g. "development" */
  readonly networkId: string;
  /** e.g. "0.0" */
  readonly apiVersion: string;
  /** The API base as the node sees it, e.g. http://127.0.0.1:1848/ledger/0.0/development */
  readonly baseUrl: string;
  /** The path part of baseUrl, used on the page's own origin. */
  readonly basePath: string;
};

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export function parseAppConfig(raw: unknown): Decoded<AppConfig> {
  return decode(raw, (x) => {
    const o = record(x, "config");
    const networkId = string(o.networkId, "networkId");
    if (!NAME.test(networkId)) reject("networkId", "a network name");
    const apiVersion = string(o.apiVersion, "apiVersion");
    if (!/^[0-9]+\.[0-9]+$/.test(apiVersion)) reject("apiVersion", "a version like 0.0");
    const baseUrl = string(o.baseUrl, "baseUrl");
    let path: string;
    try {
      const u = new URL(baseUrl);
      if (u.protocol !== "http:" && u.protocol !== "https:") reject("baseUrl", "an http URL");
      path = u.pathname.replace(/\/+$/, "");
    } catch {
      return reject("baseUrl", "an http URL");
    }
    const expected = `/ledger/${apiVersion}/${networkId}`;
    if (path !== expected) reject("baseUrl", `a URL ending in ${expected}`);
    return { networkId, apiVersion, baseUrl, basePath: path };
  });
}
