/**
 * The Node page's server data as query options: one factory per endpoint, with its key and
 * its polling interval (each view polls only what it shows, while it shows it).
 * @module
 */
import { queryOptions } from "@tanstack/react-query";
import { unwrap } from "../../api/clientFailure.ts";
import type { NodeClient } from "../../api/nodeClient.ts";
import { queryKeys } from "../../services/queryClient.ts";

const HEALTH_EVERY_MS = 5000;
const INFO_EVERY_MS = 60_000;
const MINING_EVERY_MS = 2000;

export function healthQuery(client: NodeClient) {
  return queryOptions({
    queryKey: queryKeys.nodeHealth,
    queryFn: () => unwrap(client.healthCheck()),
    refetchInterval: HEALTH_EVERY_MS,
    // A failed check is news to show at once, not to hide behind a retry.
    retry: false,
  });
}

export function infoQuery(client: NodeClient) {
  return queryOptions({
    queryKey: queryKeys.nodeInfo,
    queryFn: () => unwrap(client.info()),
    refetchInterval: INFO_EVERY_MS,
  });
}

export function miningQuery(client: NodeClient) {
  return queryOptions({
    queryKey: queryKeys.mining,
    queryFn: () => unwrap(client.mining()),
    refetchInterval: MINING_EVERY_MS,
  });
}
