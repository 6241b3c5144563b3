/**
 * Starts the UI: loads /app/config.json from the node that served this page, builds the
 * services (node client, desktop bridge, the chain store with its one header stream, the
 * query cache) and renders the router; if the node cannot be reached, says so and offers
 * to try again.
 * @module
 */
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { clientErrorWords, type ErrorWords } from "./api/errorWords.ts";
import { createNodeClient, type FetchLike, loadAppConfig } from "./api/nodeClient.ts";
import { createPactClient } from "./api/pactClient.ts";
import { createAppRouter } from "./app/router.tsx";
import { findDesktopBridge } from "./desktop/desktopBridge.ts";
import { ChainStore } from "./services/chainStore.ts";
import { createAppQueryClient, invalidateOnNewBlocks } from "./services/queryClient.ts";
import { RestartWatch } from "./services/restartWatch.ts";
import { type Services, ServicesProvider } from "./services/services.tsx";
import { ErrorDetails } from "./ui/ErrorMessage.tsx";
import "./ui/styles.css";

const browserFetch: FetchLike = (url, init) => window.fetch(url, init);

// React Aria adds a <style> element for pressable elements unless one with this id exists;
// the page's Content-Security-Policy refuses inline styles, so styles.css carries the rule
// and this marker stops the injection.
function markPressableStyleProvided(): void {
  const id = "react-aria-pressable-style";
  if (document.getElementById(id) !== null) return;
  const marker = document.createElement("meta");
  marker.id = id;
  marker.name = "react-aria-pressable-style";
  marker.content = "provided by styles.css";
  document.head.append(marker);
}

function Loading() {
  return (
    <main className="boot" aria-busy="true">
      <p role="status">Connecting to the node…</p>
    </main>
  );
}

function Unreachable({
  error,
  onRetry,
}: {
  readonly error: ErrorWords;
  readonly onRetry: () => void;
}) {
  return (
    <main className="boot">
      <h1>Cannot reach the Weft node</h1>
      <p role="alert">{error.text}</p>
      <ErrorDetails details={error.details} />
      <button type="button" className="btn btn-primary btn-md" onClick={onRetry}>
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
      <Unreachable error={clientErrorWords(config.error)} onRetry={() => void boot(root)} />,
    );
    return;
  }
  const client = createNodeClient({
    origin: window.location.origin,
    basePath: config.value.basePath,
    fetch: browserFetch,
  });
  const chain = new ChainStore({ client, createSource: (url) => new EventSource(url) });
  const queries = createAppQueryClient();
  const services: Services = {
    config: config.value,
    client,
    pact: createPactClient(client),
    desktop: findDesktopBridge(window),
    chain,
    // Once the node is back: a fresh cut, and every query asked again.
    restart: new RestartWatch({
      client,
      onBack: () => {
        chain.reload();
        void queries.invalidateQueries();
      },
    }),
  };
  invalidateOnNewBlocks(services.chain, queries);
  const router = createAppRouter();
  root.render(
    <StrictMode>
      <ServicesProvider services={services}>
        <QueryClientProvider client={queries}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ServicesProvider>
    </StrictMode>,
  );
}

markPressableStyleProvided();
const container = document.getElementById("root");
if (container !== null) void boot(createRoot(container));
