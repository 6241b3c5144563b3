/**
 * What genesis costs at node start: the genesis payloads of every chain of a
 * network (run once per process, on first use), one chain's genesis on a
 * fresh storage (warm), and opening a new data directory with real genesis
 * payloads against one with empty ones (the baseline).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { buildGenesisPayload } from "../../src-node/chain/genesisPayload.ts";
import { developmentVersion, testSingletonVersion } from "../../src-node/chain/versions.ts";
import { createMemoryStorage } from "../../src-node/contract/storage/memoryStorage.ts";
import { genesisPayloadOf, genesisPayloads } from "../../src-node/genesis/genesisPayloads.ts";
import { runGenesis } from "../../src-node/genesis/runGenesis.ts";
import { BlockDb } from "../../src-node/store/blockDb.ts";
import { tempDir } from "../support/testNode.ts";

function report(metric: string, value: number, unit: string): void {
  console.log(`BENCH genesis ${metric}=${Math.round(value * 10) / 10} ${unit}`);
}

function time(f: () => void): number {
  const t = performance.now();
  f();
  return performance.now() - t;
}

report(
  "development_20_chains_first_ms",
  time(() => genesisPayloads(developmentVersion)),
  "ms",
);
report(
  "test_singleton_10_chains_ms",
  time(() => genesisPayloads(testSingletonVersion)),
  "ms",
);
report(
  "development_cached_ms",
  time(() => genesisPayloads(developmentVersion)),
  "ms",
);
const runs = 20;
report(
  "one_chain_warm_ms",
  time(() => {
    for (let i = 0; i < runs; i++) runGenesis(developmentVersion, i % 20, createMemoryStorage());
  }) / runs,
  "ms",
);

const dir = tempDir("weft-bench-genesis-");
try {
  const empty = buildGenesisPayload([]);
  report(
    "open_new_blockdb_empty_genesis_ms",
    time(() =>
      BlockDb.open({
        path: join(dir, "empty", "blocks.sqlite"),
        version: developmentVersion,
        genesisPayload: () => empty,
      }).close(),
    ),
    "ms",
  );
  report(
    "open_new_blockdb_real_genesis_ms",
    time(() =>
      BlockDb.open({
        path: join(dir, "real", "blocks.sqlite"),
        version: developmentVersion,
        genesisPayload: (c) => genesisPayloadOf(developmentVersion, c),
      }).close(),
    ),
    "ms",
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
