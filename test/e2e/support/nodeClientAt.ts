/**
 * The renderer's node client for a test that talks to a node from outside a page: on the
 * origin of the node's `baseUrl`, with Node's fetch.
 */
import { createNodeClient, type NodeClient } from "../../../renderer/src/api/nodeClient.ts";

export function nodeClientAt(baseUrl: string): NodeClient {
  const url = new URL(baseUrl);
  return createNodeClient({
    origin: url.origin,
    basePath: url.pathname,
    fetch: (u, init) => fetch(u, init),
  });
}
