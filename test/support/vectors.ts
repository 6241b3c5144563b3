/**
 * The one loader of the shared test vectors (../shared/vectors, data from
 * other projects). Tests never copy vector data into this repository.
 *
 * Lookup order: $WEFT_VECTORS, ../shared/vectors beside the checkout, then
 * /work/shared/vectors. A missing directory fails the test run loudly.
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

function vectorsDir(): string {
  const candidates = [
    process.env.WEFT_VECTORS,
    join(repoRoot, "..", "shared", "vectors"),
    "/work/shared/vectors",
  ].filter((c): c is string => typeof c === "string" && c.length > 0);
  for (const c of candidates) if (existsSync(join(c, "README.md"))) return c;
  throw new Error(`test vectors not found; looked in: ${candidates.join(", ")}`);
}

/** A vector file: its source and cases (other top-level keys vary per file). */
export type VectorFile<Case> = { source: unknown; cases: Case[]; [key: string]: unknown };

/** Reads and parses `name` (e.g. "ed25519.json") from the shared vectors. */
export function loadVectors<Case = Record<string, unknown>>(name: string): VectorFile<Case> {
  const text = readFileSync(join(vectorsDir(), name), "utf8");
  const parsed: unknown = JSON.parse(text);
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    !Array.isArray((parsed as { cases?: unknown }).cases)
  ) {
    throw new Error(`${name}: not a vector file with a cases array`);
  }
  return parsed as VectorFile<Case>;
}
