/**
 * The app's frame: a skip link, the header (app icon, name, network, live cut height,
 * "About"), the main navigation and the current page. After each navigation, focus moves
 * to the new page's heading (not on the first page, which keeps the browser's start point).
 * The wallet's vault (its worker holding the unlocked keys), its pending cross-chain
 * transfers (driven forward whatever page is open) and the dapps' signing requests (their
 * review opens whatever page is open) are mounted here, once.
 * @module
 */
import { Link, Outlet, useRouter } from "@tanstack/react-router";
import { useEffect, useRef } from "react";
import iconUrl from "../assets/icon.png";
import { PendingProvider } from "../features/wallet/crosschain/PendingProvider.tsx";
import { DappRequestsProvider } from "../features/wallet/dapp/DappRequestsProvider.tsx";
import { VaultProvider } from "../features/wallet/vault/VaultProvider.tsx";
import { formatInteger } from "../format/number.ts";
import { useLiveChain, useRestartPhase, useServices } from "../services/services.tsx";
import { DialogButton } from "../ui/Dialog.tsx";
import { LongValue } from "../ui/LongValue.tsx";
import { pageTitleId } from "../ui/PageTitle.tsx";
import { Toasts } from "../ui/toasts.tsx";
import { navPages } from "./routes.ts";

function CutBadge() {
  const { heights, stream } = useLiveChain();
  if (!heights.loaded) return null;
  return (
    <span
      className={`badge cut-badge ${stream === "open" ? "live" : ""}`}
      title="The cut height: every chain's height added up. It grows by one with each new block; the dot is green while blocks arrive live."
    >
      <span className="badge-dot" aria-hidden="true" />
      Cut height {formatInteger(heights.cutHeight)}
    </span>
  );
}

/** "Node restarting…" while the node is away after a restart or a restore, then the outcome. */
function RestartBanner() {
  const phase = useRestartPhase();
  const { restart } = useServices();
  if (phase.kind === "idle") return null;
  const what =
    phase.reason === "restore" ? "Restoring the backup: node restarting…" : "Node restarting…";
  return (
    <div
      className={`restart-banner restart-${phase.kind}`}
      role={phase.kind === "failed" ? "alert" : "status"}
      data-testid="restart-banner"
    >
      {phase.kind === "restarting" && <span>{what}</span>}
      {phase.kind === "back" && <span>The node is running again.</span>}
      {phase.kind === "failed" && <span>{phase.message}</span>}
      {phase.kind !== "restarting" && (
        <button type="button" className="btn btn-quiet btn-sm" onClick={() => restart.dismiss()}>
          Dismiss
        </button>
      )}
    </div>
  );
}

function About() {
  const { config, client } = useServices();
  return (
    <DialogButton label="About" title="About Weft" tone="quiet" size="sm">
      <p>
        Weft is a full node, wallet, block explorer and backup tool for a braided proof-of-work
        ledger.
      </p>
      <dl className="facts">
        <dt>Network</dt>
        <dd>{config.networkId}</dd>
        <dt>API version</dt>
        <dd>{config.apiVersion}</dd>
        <dt>API base</dt>
        <dd>
          <LongValue value={client.baseUrl} what="API base URL" />
        </dd>
      </dl>
    </DialogButton>
  );
}

export function AppShell() {
  const { config } = useServices();
  const router = useRouter();
  const mainRef = useRef<HTMLElement>(null);

  useEffect(
    () =>
      router.subscribe("onResolved", (event) => {
        if (event.fromLocation === undefined || !event.hrefChanged) return;
        requestAnimationFrame(() => document.getElementById(pageTitleId)?.focus());
      }),
    [router],
  );

  return (
    <div className="app">
      <button type="button" className="skip-link" onClick={() => mainRef.current?.focus()}>
        Skip to content
      </button>
      <header className="topbar">
        <img src={iconUrl} alt="" className="brand-icon" width={28} height={28} />
        <span className="brand">Weft</span>
        <span className="badge" title="Network" data-testid="network-badge">
          {config.networkId}
        </span>
        <span className="topbar-end">
          <CutBadge />
          <About />
        </span>
      </header>
      <nav aria-label="Main" className="nav">
        <ul>
          {navPages.map((p) => (
            <li key={p.to}>
              <Link to={p.to} activeProps={{ "aria-current": "page" }}>
                {p.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" ref={mainRef} tabIndex={-1}>
        <RestartBanner />
        {/* Around every page, so the wallet stays unlocked while the user visits others. */}
        <VaultProvider>
          {/* Pending cross-chain transfers advance whatever page is open. */}
          <PendingProvider>
            {/* Dapps' signing requests open their review whatever page is open. */}
            <DappRequestsProvider>
              <Outlet />
            </DappRequestsProvider>
          </PendingProvider>
        </VaultProvider>
      </main>
      <Toasts />
    </div>
  );
}
