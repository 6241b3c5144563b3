/**
 * The tests `npm test` leaves to `npm run test:all`: real `weft node` processes (several talking
 * to each other under test/p2p/), the package contents, the benchmark scripts. One file at a
 * time: each starts processes that want the machine's cores, and timing-sensitive ones (sync,
 * mining) would only get flaky when run side by side. CI sets WEFT_TEST_REPORT_PROCESS.
 */
import { defineConfig } from "vitest/config";
import { processTests } from "../vitest.config.ts";

const report = process.env.WEFT_TEST_REPORT_PROCESS;

export default defineConfig({
  test: {
    include: processTests,
    exclude: ["node_modules/**"],
    pool: "forks",
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    ...(report !== undefined && report !== ""
      ? { reporters: ["default", "json"], outputFile: { json: report } }
      : {}),
  },
});
