/**
 * The app's frame: a skip link, the header with the network, the main navigation (Wallet,
 * Explorer, Backup, Node) and the current page. Moving to another page moves focus to its
 * heading and updates the document title.
 * @module
 */
import { useEffect, useRef } from "react";
import type { AppConfig } from "./api/appConfig.ts";
import type { EventSourceLike } from "./api/headerStream.ts";
import type { NodeClient } from "./api/nodeClient.ts";
import { pageTitleId } from "./components/PageTitle.tsx";
import type { DesktopApi } from "./desktop/desktopBridge.ts";
import { useHashRoute } from "./hooks/useHashRoute.ts";
import { NodePage } from "./pages/NodePage.tsx";
import { NotFoundPage } from "./pages/NotFoundPage.tsx";
import { PlaceholderPage } from "./pages/PlaceholderPage.tsx";
import { pages, type Route, routeLabel } from "./routes.ts";

export type AppProps = {
  readonly config: AppConfig;
  readonly client: NodeClient;
  readonly desktop: DesktopApi | null;
  readonly createEventSource: (url: string) => EventSourceLike;
};

function Page({ route, ...props }: AppProps & { readonly route: Route }) {
  switch (route) {
    case "node":
      return <NodePage {...props} />;
    case "wallet":
      return (
        <PlaceholderPage
          title="Wallet"
          purpose="Create or restore a wallet from a recovery phrase, see your accounts on every chain, and send and sign transfers."
        />
      );
    case "explorer":
      return (
        <PlaceholderPage
          title="Explorer"
          purpose="Browse the blocks, transactions and results of this node's chains."
        />
      );
    case "backup":
      return (
        <PlaceholderPage
          title="Backup"
          purpose="Back up the node's databases and your wallet with one click, and restore them."
        />
      );
    case "not-found":
      return <NotFoundPage />;
    default: {
      const never: never = route;
      return never;
    }
  }
}

export function App(props: AppProps) {
  const route = useHashRoute();
  const mainRef = useRef<HTMLElement>(null);
  const shownRoute = useRef(route);

  useEffect(() => {
    document.title = `${routeLabel(route)} · Weft`;
    // Only a change of page moves focus; the first page keeps the browser's start point.
    if (shownRoute.current === route) return;
    shownRoute.current = route;
    document.getElementById(pageTitleId)?.focus();
  }, [route]);

  return (
    <div className="app">
      <button type="button" className="skip-link" onClick={() => mainRef.current?.focus()}>
        Skip to content
      </button>
      <header className="topbar">
        <span className="brand">Weft</span>
        <span className="network" title="Network">
          {props.config.networkId}
        </span>
      </header>
      <nav aria-label="Main" className="nav">
        <ul>
          {pages.map((p) => (
            <li key={p.id}>
              <a href={p.hash} aria-current={route === p.id ? "page" : undefined}>
                {p.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" ref={mainRef} tabIndex={-1}>
        <Page route={route} {...props} />
      </main>
    </div>
  );
}
