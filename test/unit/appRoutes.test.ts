/**
 * The app API's table (src-node/appContract/appRoutes.ts; issue 37) as data: every entry is
 * under /app/api/, named once with its method, its query names and `:name` segments are plain
 * identifiers, and `endpointPath` (appContract/endpointPath.ts) fills a route's segments
 * (encoded) and appends the query names it lists, in the entry's order, leaving out absent ones.
 */
import { describe, expect, it } from "vitest";
import { appRoute } from "../../src-node/appContract/appRoute.ts";
import { APP_ROUTES, appRoutes } from "../../src-node/appContract/appRoutes.ts";
import { endpointPath } from "../../src-node/appContract/endpointPath.ts";

describe("[unit] the app API's table", () => {
  it("lists each route once, under /app/api/, with identifiers for names", () => {
    expect(APP_ROUTES.length).toBeGreaterThan(35);
    const keys = APP_ROUTES.map((r) => `${r.method} ${r.route}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of APP_ROUTES) {
      expect(r.route, r.route).toMatch(/^\/app\/api\/[a-z-]+(?:\/(?:[a-z-]+|:[A-Za-z]+))*$/);
      for (const q of r.query) expect(q, r.route).toMatch(/^[a-z]+$/);
      expect(new Set(r.query).size, r.route).toBe(r.query.length);
      expect("body" in r, `${r.route}: the body is a type only`).toBe(false);
    }
  });

  it("groups every entry under a feature, and the list holds each once", () => {
    const grouped = Object.values(appRoutes).flatMap((g) => Object.values(g));
    expect(grouped).toEqual([...APP_ROUTES]);
    expect(appRoutes.backup.check.timeoutMs).toBe(300_000);
    expect(appRoutes.node.log.query).toEqual(["level", "limit"]);
  });

  it("fills a route's segments, encoded, and appends the listed query names that are given", () => {
    expect(endpointPath(appRoutes.backup.job, { id: "a b/c" })).toBe(
      "/app/api/backup/jobs/a%20b%2Fc",
    );
    expect(
      endpointPath(appRoutes.explorer.transfers, { account: "k:ab", limit: 5, chain: undefined }),
    ).toBe("/app/api/explorer/account/k%3Aab/transfers?limit=5");
    expect(endpointPath(appRoutes.explorer.search, { q: "a&b=c" })).toBe(
      "/app/api/explorer/search?q=a%26b%3Dc",
    );
    expect(endpointPath(appRoutes.node.log, {})).toBe("/app/api/node/log");
  });

  it("refuses a route whose segment has no value (a bug the types catch)", () => {
    const entry = appRoute({ method: "GET", route: "/app/api/x/:id" });
    expect(() => endpointPath(entry, {} as { id: string })).toThrow(/no value for :id/);
  });
});
