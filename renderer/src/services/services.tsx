/**
 * The services every page reaches through one React context instead of props passed down:
 * the node client (and the contract command endpoints over it), the app's configuration, the desktop bridge (null in a browser), the
 * live chain store (the single header-update stream and the cut) and the restart watch (the
 * node going away and coming back after "Restart node" or a restore).
 * @module
 */
import { createContext, type ReactNode, useContext, useSyncExternalStore } from "react";
import type { AppConfig } from "../api/appConfig.ts";
import type { NodeClient } from "../api/nodeClient.ts";
import type { PactClient } from "../api/pactClient.ts";
import type { DesktopApi } from "../desktop/desktopBridge.ts";
import type { ChainStore, LiveChain } from "./chainStore.ts";
import type { RestartPhase, RestartWatch } from "./restartWatch.ts";

export type Services = {
  readonly config: AppConfig;
  /** The one HTTP client. */
  readonly client: NodeClient;
  /** The contract command endpoints over that client. */
  readonly pact: PactClient;
  readonly desktop: DesktopApi | null;
  readonly chain: ChainStore;
  /** Asks for and follows restarts of the node (`restart()`, `follow(launchId, reason)`). */
  readonly restart: RestartWatch;
};

const ServicesContext = createContext<Services | null>(null);

export function ServicesProvider({
  services,
  children,
}: {
  readonly services: Services;
  readonly children: ReactNode;
}) {
  return <ServicesContext value={services}>{children}</ServicesContext>;
}

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (services === null) throw new Error("useServices() outside <ServicesProvider>");
  return services;
}

/** The live cut and stream state, shared by every page. */
export function useLiveChain(): LiveChain {
  const { chain } = useServices();
  return useSyncExternalStore(chain.subscribe, chain.getSnapshot);
}

/** Where a restart of the node stands (idle, restarting, back, failed). */
export function useRestartPhase(): RestartPhase {
  const { restart } = useServices();
  return useSyncExternalStore(restart.subscribe, restart.getSnapshot);
}
