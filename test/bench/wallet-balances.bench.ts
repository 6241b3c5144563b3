/**
 * The wallet home's balance refresh against a local node (development: 20 chains):
 * - `balances_ms`: reading 10 accounts on every chain as the wallet does it (one batched
 *   `/local` per chain, all chains at once, the renderer's own client and parser over real
 *   HTTP on loopback), median of WEFT_BENCH_ROUNDS rounds (default 20) after one warm-up;
 * - `balances_per_chain_ms`: the same, one chain at a time, per chain (a baseline).
 * Indicative only on a shared machine.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPactClient } from "../../renderer/src/api/pactClient.ts";
import { readAccounts } from "../../renderer/src/features/wallet/accounts/readAccounts.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import { createNode } from "../../src-node/node.ts";

const rounds = Math.max(1, Number(process.env.WEFT_BENCH_ROUNDS ?? "20"));

function report(metric: string, value: number, unit: string): void {
  console.log(`BENCH wallet-balances ${metric}=${value.toFixed(2)} ${unit}`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

const dir = mkdtempSync(join(tmpdir(), "weft-bench-wallet-"));
const node = await createNode({ network: "development", dataDir: dir, host: "127.0.0.1", port: 0 });
try {
  await node.start();
  const pact = createPactClient({
    baseUrl: node.baseUrl,
    fetch: (url, init) => fetch(url, init),
    timeoutMs: 30_000,
  });
  const accounts = DEV_ACCOUNT_KEYS.slice(0, 10).map((k) => `k:${k.publicKey}`);
  const chains = [...node.blocks.cut().keys()].sort((a, b) => a - b);
  if (chains.length !== 20) throw new Error(`expected 20 chains, got ${chains.length}`);
  const all = async () => {
    const reads = await Promise.all(
      chains.map((c) => readAccounts(pact, node.version.name, c, accounts)),
    );
    for (const r of reads) {
      if (r.length !== accounts.length || !r.every((a) => a.exists)) throw new Error("bad read");
    }
  };
  await all();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await all();
    times.push(performance.now() - t0);
  }
  report("balances_ms", median(times), "ms");
  const serial: number[] = [];
  for (let i = 0; i < Math.min(rounds, 5); i++) {
    for (const c of chains) {
      const t0 = performance.now();
      await readAccounts(pact, node.version.name, c, accounts);
      serial.push(performance.now() - t0);
    }
  }
  report("balances_per_chain_ms", median(serial), "ms");
} finally {
  await node.close();
  rmSync(dir, { recursive: true, force: true });
}
