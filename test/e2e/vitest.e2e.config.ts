/**
 * End-to-end tests: the built UI in headless Chromium (Debian's, driven by playwright-core).
 * Run with `npm run test:e2e`; `npm test` runs them after the unit tests. Test files are
 * `test/e2e/**\/*.e2e.ts`; screenshots go to test/e2e/artifacts/ (gitignored).
 */
import { defineConfig } from "vitest/config";

const report = process.env.WEFT_TEST_REPORT_E2E;

export default defineConfig({
  test: {
    include: ["test/e2e/**/*.e2e.ts"],
    globalSetup: ["test/e2e/support/globalSetup.ts"],
    pool: "forks",
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    ...(report !== undefined && report !== ""
      ? { reporters: ["default", "json"], outputFile: { json: report } }
      : {}),
  },
});
