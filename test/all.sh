#!/bin/sh
# `npm run test:all`: everything — the gate (`npm test`'s Vitest part), the process and
# multi-node tests, the whole end-to-end suite (which includes the gate's fast e2e files).
# Each part runs even when an earlier one failed, so one run shows every failure; the exit
# status is non-zero when any part failed.
status=0
echo "== test:all 1/3: the gate's unit, vector, contract and API tests"
npx vitest run || status=1
echo "== test:all 2/3: process and multi-node tests (test/vitest.process.config.ts)"
npx vitest run --config test/vitest.process.config.ts || status=1
echo "== test:all 3/3: end-to-end tests in headless Chromium"
npx vitest run --config test/e2e/vitest.e2e.config.ts || status=1
exit $status
