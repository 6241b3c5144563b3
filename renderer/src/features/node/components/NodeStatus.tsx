/**
 * The node's identity and health: network, base URL, software and API versions, number of
 * chains, and a health check repeated every few seconds.
 * @module
 */
import { useQuery } from "@tanstack/react-query";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { useServices } from "../../../services/services.tsx";
import { ErrorDetails } from "../../../ui/ErrorMessage.tsx";
import { ErrorNotice } from "../../../ui/ErrorNotice.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { healthQuery, infoQuery } from "../api.ts";
import { healthView } from "../model.ts";

export function NodeStatus() {
  const { client, config } = useServices();
  const health = useQuery(healthQuery(client));
  const info = useQuery(infoQuery(client));
  const h = healthView(health.data, health.status === "error" ? clientErrorOf(health.error) : null);
  return (
    <Panel id="status" title="Status">
      <dl className="facts">
        <dt>Network</dt>
        <dd data-testid="network">{config.networkId}</dd>
        <dt>Base URL</dt>
        <dd>
          <LongValue value={client.baseUrl} what="base URL" testId="base-url" />
        </dd>
        <dt>Health</dt>
        <dd>
          <span role="status" data-testid="health">
            {h.kind === "checking" ? (
              "Checking…"
            ) : h.kind === "healthy" ? (
              <>
                <strong className="good">Healthy:</strong> {h.text}
              </>
            ) : (
              <>
                <strong className="bad">Not responding.</strong> {h.text}
              </>
            )}
          </span>
          {h.kind === "down" ? <ErrorDetails details={h.details} /> : null}
        </dd>
        {info.data === undefined ? null : (
          <>
            <dt>Node software</dt>
            <dd data-testid="node-version">{info.data.nodePackageVersion}</dd>
            <dt>API version</dt>
            <dd>{info.data.nodeApiVersion}</dd>
            <dt>Chains</dt>
            <dd data-testid="chain-count">{info.data.nodeNumberOfChains}</dd>
          </>
        )}
      </dl>
      {info.status === "error" ? (
        <ErrorNotice
          error={clientErrorOf(info.error)}
          what="the node information"
          onRetry={() => void info.refetch()}
        />
      ) : null}
    </Panel>
  );
}
