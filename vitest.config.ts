import { defineConfig } from "vitest/config";

/**
 * `npm test`, the gate run before every commit: unit, vector, contract and API tests in this
 * process's workers (docs/testing.md). What starts processes, drives a browser or takes minutes
 * is left to `npm run test:all` (test/vitest.process.config.ts, the e2e config): the files named
 * `*.process.test.ts` and everything under test/p2p/ (nodes talking to nodes).
 *
 * Two projects by cost. Most files share their worker's module cache (`isolate: false`):
 * importing node.ts and its areas took about 200 of the gate's 360 s when every file paid it
 * again. Files that replace modules (`vi.mock`), stub globals or fake the clock run isolated,
 * in a fresh module graph each, so nothing they change leaks into the next file.
 * CI sets WEFT_TEST_REPORT to get a JSON report it can count (see .ci/run).
 */
export const processTests = ["test/**/*.process.test.ts", "test/p2p/**/*.test.ts"];

/** Files that must not share modules with others: they mock modules, stub globals or timers. */
export const isolatedTests = [
  "test/api/referencePath.test.ts",
  "test/unit/electronMain.test.ts",
  "test/unit/electronPreload.test.ts",
  "test/unit/electronShell.test.ts",
  "test/unit/miningParts.test.ts",
  "test/renderer/signRequestsQuery.test.ts",
];

const report = process.env.WEFT_TEST_REPORT;
const exclude = ["test/e2e/**", "node_modules/**", ...processTests];

export default defineConfig({
  test: {
    pool: "forks",
    // Vitest's default on 2 cores is one worker; the gate's files are CPU-bound and
    // independent, so both cores work.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include: ["test/**/*.test.ts"],
          exclude: [...exclude, ...isolatedTests],
          isolate: false,
        },
      },
      { extends: true, test: { name: "isolated", include: isolatedTests, exclude } },
    ],
    ...(report !== undefined && report !== ""
      ? { reporters: ["default", "json"], outputFile: { json: report } }
      : {}),
  },
});
