/**
 * Fixed facts about this release of the node (its options' defaults are the option
 * table's, nodeOptionTable.ts).
 * @module
 */
import { readFileSync } from "node:fs";

/**
 * `nodeServiceDate` of /info: the date by which this release should be
 * replaced by a newer one. Weft does not stop at that date; it is advice.
 */
export const NODE_SERVICE_DATE = "2027-06-30T00:00:00Z";

let cachedVersion: string | undefined;

/** The node's release: `version` of package.json. */
export function packageVersion(): string {
  if (cachedVersion === undefined) {
    const pkg: unknown = JSON.parse(
      readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
    );
    const v = typeof pkg === "object" && pkg !== null && "version" in pkg ? pkg.version : undefined;
    cachedVersion = typeof v === "string" ? v : "0.0.0";
  }
  return cachedVersion;
}
