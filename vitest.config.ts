import { defineConfig } from "vitest/config";

// Unit, vector, contract and API tests. CI sets WEFT_TEST_REPORT to get a JSON
// report it can count (see .ci/run).
const report = process.env.WEFT_TEST_REPORT;
// `npm run test:p2p` also runs the slow multi-process peer tests (`test/p2p/*.p2p.ts`),
// which `npm test` leaves out.
const slowP2p = process.env.WEFT_TEST_P2P === "1" ? ["test/p2p/**/*.p2p.ts"] : [];

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", ...slowP2p],
    exclude: ["test/e2e/**", "node_modules/**"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    ...(report !== undefined && report !== ""
      ? { reporters: ["default", "json"], outputFile: { json: report } }
      : {}),
  },
});
