import { defineConfig } from "vitest/config";

// Unit, vector, contract and API tests. CI sets WEFT_TEST_REPORT to get a JSON
// report it can count (see .ci/run).
const report = process.env.WEFT_TEST_REPORT;

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/e2e/**", "node_modules/**"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    ...(report !== undefined && report !== ""
      ? { reporters: ["default", "json"], outputFile: { json: report } }
      : {}),
  },
});
