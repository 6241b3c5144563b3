/**
 * The reference network's form of `{base_url}`: `/chainweb/0.0/{network}`.
 * The ecosystem's client libraries, wallets and command-line tools are given
 * a bare host and build every URL as `{host}/chainweb/0.0/{network}/…`, so
 * the node serves its whole API under that path too (architecture §2.2).
 *
 * It is an alias, not a second set of routes: before routing, a URL under the
 * alias is rewritten to the same URL under `/ledger/0.0/{network}` (Fastify's
 * `rewriteUrl`). So the same handlers, hooks (headers, CORS, the Host/Origin
 * checks) and errors apply, and every path-based rule sees one form; the path
 * the client sent stays in `request.originalUrl` (error texts name it).
 * `/ledger/0.0/{network}` stays the primary form the node prints.
 * @module
 */
import type { NetworkVersion } from "../chain/networkVersion.ts";
import { basePath } from "./apiServices.ts";
import { API_VERSION } from "./nodeInfo.ts";

/** `/chainweb/{apiVersion}/{network}`: the reference's path of `{base_url}`. */
export function referenceBasePath(version: NetworkVersion): string {
  return `/chainweb/${API_VERSION}/${version.name}`;
}

/**
 * The URL rewrite of a server for `version`: a URL (path and query) under
 * `/chainweb/0.0/{network}` (the path itself, or followed by `/` or `?`)
 * becomes the same URL under `/ledger/0.0/{network}`; any other URL is
 * returned as it is (another network's name stays an unknown route).
 */
export function referencePathRewriter(version: NetworkVersion): (url: string) => string {
  const alias = referenceBasePath(version);
  const primary = basePath(version);
  return (url) => {
    // Every request passes here: no work unless the URL starts like the alias.
    if (!url.startsWith(alias)) return url;
    const next = url.charCodeAt(alias.length);
    if (Number.isNaN(next) || next === 0x2f /* / */ || next === 0x3f /* ? */)
      return primary + url.slice(alias.length);
    return url;
  };
}
