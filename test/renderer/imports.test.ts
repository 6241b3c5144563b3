/**
 * The renderer's import rules. Outside renderer/ it imports only what src-node/layers.ts
 * allows the `renderer` area (the command model, the test keys' data module, the desktop
 * bridge's contract: the table test/unit/layering.test.ts checks too, so the two cannot
 * disagree; that test also keeps Node built-ins out). Inside, a feature folder
 * (renderer/src/features/<name>/) never imports another feature, so each can grow alone (a
 * feature reading another's route calls it from the shared table, src-node/appContract/, as
 * the wallet does the backup overview and the explorer's transaction); shared code (api/,
 * services/, ui/, format/) imports no feature; only app/ (the router) puts the features
 * together.
 */
import { describe, expect, it } from "vitest";
import { areaOf, mayImport } from "../../src-node/layers.ts";
import { sourceFiles } from "../support/importGraph.ts";

function featureOf(path: string): string | null {
  return /^renderer\/src\/features\/([^/]+)\//.exec(path)?.[1] ?? null;
}

describe("[renderer] import rules", () => {
  it("imports only browser-safe code, and features do not import each other", () => {
    const violations: string[] = [];
    const all = sourceFiles(["renderer/src"]);
    expect(all.length).toBeGreaterThan(20);
    for (const file of all) {
      const from = file.path;
      for (const to of file.imports) {
        if (areaOf(to) !== "renderer") {
          if (!mayImport("renderer", to)) violations.push(`${from} imports ${to}`);
          continue;
        }
        const a = featureOf(from);
        const b = featureOf(to);
        // Only the app (router) puts features together; shared code never imports one.
        const inApp = from.startsWith("renderer/src/app/");
        if (b !== null && a !== b && !(a === null && inApp)) {
          violations.push(`${from} (feature ${a ?? "none"}) imports ${to}`);
        }
      }
    }
    expect(violations).toEqual([]);
  });
});
