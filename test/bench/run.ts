/**
 * `npm run bench -- <name>` runs test/bench/<name>.bench.ts. Each benchmark
 * prints its figures as lines `BENCH <name> <metric>=<number> <unit>`,
 * baselines included, so runs can be compared.
 */
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .map((f) => f.slice(0, -".bench.ts".length));
const names = process.argv.slice(2);
if (names.length === 0) {
  console.error(`usage: npm run bench -- <name>…\navailable: ${available.join(", ") || "(none)"}`);
  process.exit(2);
}
for (const name of names) {
  const file = join(here, `${name}.bench.ts`);
  if (!existsSync(file)) {
    console.error(`no benchmark '${name}'; available: ${available.join(", ")}`);
    process.exit(2);
  }
  await import(pathToFileURL(file).href);
}
