/**
 * Starts the UI: loads /app/config.json from the node that served this page, then renders
 * the app; if the node cannot be reached, says so and offers to try again.
 * @module
 */
import { StrictMode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { App } from "./App.tsx";
import { describeClientError } from "./api/clientError.ts";
import type { EventSourceLike } from "./api/headerStream.ts";
import { createNodeClient, type FetchLike, loadAppConfig } from "./api/nodeClient.ts";
import { findDesktopBridge } from "./desktop/desktopBridge.ts";
import "./styles.css";

const browserFetch: FetchLike = (url, init) => window.fetch(url, init);
const createEventSource = (url: string): EventSourceLike => new EventSource(url);

function Loading() {
  return (
    <main className="boot" aria-busy="true">
      <p role="status">Connecting to the node…</p>
    </main>
  );
}

function Unreachable({
  message,
  onRetry,
}: {
  readonly message: string;
  readonly onRetry: () => void;
}) {
  return (
    <main className="boot">
      <h1>Cannot reach the Weft node</h1>
      <p role="alert">{message}</p>
      <button type="button" onClick={onRetry}>
        Try again
      </button>
    </main>
  );
}

async function boot(root: Root): Promise<void> {
  root.render(<Loading />);
  const config = await loadAppConfig(browserFetch, `${import.meta.env.BASE_URL}config.json`);
  if (!config.ok) {
    root.render(
      <Unreachable message={describeClientError(config.error)} onRetry={() => void boot(root)} />,
    );
    return;
  }
  const client = createNodeClient({
    origin: window.location.origin,
    config: config.value,
    fetch: browserFetch,
  });
  root.render(
    <StrictMode>
      <App
        config={config.value}
        client={client}
        desktop={findDesktopBridge(window)}
        createEventSource={createEventSource}
      />
    </StrictMode>,
  );
}

const container = document.getElementById("root");
if (container !== null) void boot(createRoot(container));
