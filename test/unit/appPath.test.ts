/** isAppPath: `/app` and what is under `/app/`, with or without a query; nothing else. */
import { describe, expect, it } from "vitest";
import { isAppPath } from "../../src-node/api/appPath.ts";

describe("[api] isAppPath", () => {
  it("takes /app, /app/…, and either with a query", () => {
    for (const url of [
      "/app",
      "/app/",
      "/app/index.html",
      "/app?x=1",
      "/app/?x",
      "/app/api/mining",
    ])
      expect(isAppPath(url), url).toBe(true);
  });

  it("refuses other paths, look-alikes included", () => {
    for (const url of ["/", "/apps", "/app.js", "/application", "/ap", "/ledger/0.0/app", "//app/"])
      expect(isAppPath(url), url).toBe(false);
  });
});
