/**
 * The app's pages and their hash routes (`#/wallet`, …). Hash routing keeps every page on
 * the one document the node serves at /app/, so reloading any page works without server
 * fallbacks.
 * @module
 */

export const pages = [
  { id: "wallet", label: "Wallet", hash: "#/wallet" },
  { id: "explorer", label: "Explorer", hash: "#/explorer" },
  { id: "backup", label: "Backup", hash: "#/backup" },
  { id: "node", label: "Node", hash: "#/node" },
] as const;

export type PageId = (typeof pages)[number]["id"];
export type Route = PageId | "not-found";

/** The page shown when the address names none (the node page until the wallet exists). */
export const defaultPage: PageId = "node";

/** The route for `location.hash`. */
export function routeFromHash(hash: string): Route {
  if (hash === "" || hash === "#" || hash === "#/") return defaultPage;
  const path = hash.replace(/^#/, "").split(/[?#]/, 1)[0] ?? "";
  const page = pages.find(
    (p) => p.hash === `#${path}` || p.hash === `#${path.replace(/\/+$/, "")}`,
  );
  return page === undefined ? "not-found" : page.id;
}

/** The label of a route, for titles. */
export function routeLabel(route: Route): string {
  return pages.find((p) => p.id === route)?.label ?? "Not found";
}
