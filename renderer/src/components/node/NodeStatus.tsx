/**
 * The node's identity and health: network, base URL, software and API versions, number of
 * chains, and a health check repeated every few seconds.
 * @module
 */
import { useCallback } from "react";
import type { AppConfig } from "../../api/appConfig.ts";
import { describeClientError } from "../../api/clientError.ts";
import type { NodeClient } from "../../api/nodeClient.ts";
import { usePolled } from "../../hooks/usePolled.ts";
import { ErrorNotice } from "../ErrorNotice.tsx";

const HEALTH_EVERY_MS = 5000;
const INFO_EVERY_MS = 60_000;

export function NodeStatus({
  client,
  config,
}: {
  readonly client: NodeClient;
  readonly config: AppConfig;
}) {
  const health = usePolled(
    useCallback(() => client.healthCheck(), [client]),
    HEALTH_EVERY_MS,
  );
  const info = usePolled(
    useCallback(() => client.info(), [client]),
    INFO_EVERY_MS,
  );
  const h = health.result;
  const i = info.result;
  return (
    <section aria-labelledby="status-title" className="panel">
      <h2 id="status-title">Status</h2>
      <dl className="facts">
        <dt>Network</dt>
        <dd data-testid="network">{config.networkId}</dd>
        <dt>Base URL</dt>
        <dd>
          <code data-testid="base-url">{client.baseUrl}</code>
        </dd>
        <dt>Health</dt>
        <dd>
          <span role="status" data-testid="health">
            {h === null ? (
              "Checking…"
            ) : h.ok ? (
              <>
                <strong className="good">Healthy:</strong> {h.value.trim() || "the node answers"}
              </>
            ) : (
              <>
                <strong className="bad">Not responding.</strong> {describeClientError(h.error)}
              </>
            )}
          </span>
        </dd>
        {i?.ok ? (
          <>
            <dt>Node software</dt>
            <dd data-testid="node-version">{i.value.nodePackageVersion}</dd>
            <dt>API version</dt>
            <dd>{i.value.nodeApiVersion}</dd>
            <dt>Chains</dt>
            <dd data-testid="chain-count">{i.value.nodeNumberOfChains}</dd>
          </>
        ) : null}
      </dl>
      {i !== null && !i.ok ? (
        <ErrorNotice error={i.error} what="the node information" onRetry={info.refresh} />
      ) : null}
    </section>
  );
}
