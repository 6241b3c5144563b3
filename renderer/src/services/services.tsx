/**
 * The services every page reaches through one React context instead of props passed down:
 * the node client, the app's configuration, the desktop bridge (null in a browser) and the
 * live chain store (the single header-update stream and the cut).
 * @module
 */
import { createContext, type ReactNode, useContext, useSyncExternalStore } from "react";
import type { AppConfig } from "../api/appConfig.ts";
import type { NodeClient } from "../api/nodeClient.ts";
import type { DesktopApi } from "../desktop/desktopBridge.ts";
import type { ChainStore, LiveChain } from "./chainStore.ts";

export type Services = {
  readonly config: AppConfig;
  readonly client: NodeClient;
  readonly desktop: DesktopApi | null;
  readonly chain: ChainStore;
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
