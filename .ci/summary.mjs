// Reads the test reports written by `npm run test:all` (WEFT_TEST_REPORT, _PROCESS, _E2E) and prints
// one line "N passed, N failed" for CI. A missing report counts as a failure.
import { existsSync, readFileSync } from "node:fs";

const files = process.argv.slice(2);
let passed = 0;
let failed = 0;
for (const f of files) {
  if (!existsSync(f)) {
    console.error(`no test report at ${f}`);
    failed += 1;
    continue;
  }
  const r = JSON.parse(readFileSync(f, "utf8"));
  passed += r.numPassedTests ?? 0;
  failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
  if (r.success === false && (r.numFailedTests ?? 0) === 0) failed += 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
