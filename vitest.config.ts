import { defineConfig } from "vitest/config";

/**
 * `npm test`, the gate run before every commit: unit, vector, contract and API tests in this
 * process's workers (docs/testing.md). What starts processes, drives a browser or takes minutes
 * is left to `npm run test:all` (test/vitest.process.config.ts, the e2e config): the files named
 * `*.process.test.ts` and everything under test/p2p/ (nodes talking to nodes).
 * CI sets WEFT_TEST_REPORT to get a JSON report it can count (see .ci/run).
 */
export const processTests = ["test/**/*.process.test.ts", "test/p2p/**/*.test.ts"];

const report = process.env.WEFT_TEST_REPORT;

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/e2e/**", "node_modules/**", ...processTests],
    pool: "forks",
    // Vitest's default on 2 cores is one worker; the gate's files are CPU-bound and
    // independent, so both cores work.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    ...(report !== undefined && report !== ""
      ? { reporters: ["default", "json"], outputFile: { json: report } }
      : {}),
  },
});
