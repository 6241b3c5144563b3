/**
 * The Node page's server data as query options: one factory per endpoint, with its key and
 * its polling interval (each view polls only what it shows, while it shows it).
 * @module
 */
import { queryOptions } from "@tanstack/react-query";
import { unwrap } from "../../api/clientFailure.ts";
import type { NodeClient } from "../../api/nodeClient.ts";
import type { LogLevel } from "../../api/nodeStatus.ts";
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

const HISTORY_EVERY_MS = 10_000;
const STATUS_EVERY_MS = 3000;
const LOG_EVERY_MS = 3000;

export function miningHistoryQuery(client: NodeClient) {
  return queryOptions({
    queryKey: queryKeys.miningHistory,
    queryFn: () => unwrap(client.miningHistory()),
    refetchInterval: HISTORY_EVERY_MS,
  });
}

/** The node's facts and what it catches up on (the banner polls it). */
export function nodeStatusQuery(client: NodeClient) {
  return queryOptions({
    queryKey: queryKeys.nodeStatus,
    queryFn: () => unwrap(client.nodeStatus()),
    refetchInterval: STATUS_EVERY_MS,
  });
}

export function nodeLogQuery(client: NodeClient, level: LogLevel) {
  return queryOptions({
    queryKey: queryKeys.nodeLog(level),
    queryFn: () => unwrap(client.nodeLog(level)),
    refetchInterval: LOG_EVERY_MS,
  });
}
