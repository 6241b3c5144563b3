/**
 * `npm run bench -- hostile`: wall time per unit of gas charged, for every
 * program of the hostile corpus (test/support/hostilePrograms.ts: string
 * doubling, hashing and sorting large values, deep folds, large objects,
 * large table writes, …), each run once as a command's payload
 * (`runContractCommand`, table gas model, on-chain mode, in-memory storage)
 * with the block gas limit (the gas charged: what it used, or the whole limit
 * when it fails, as on chain), after the whole corpus ran once at a small limit
 * to warm the JIT. The target (issue 15): at most 5 µs per gas for every
 * program, so that a 150,000-gas command cannot run much past a second.
 *
 * Environment: `WEFT_BENCH_SCALE` (gas limit = 150,000 × scale, at least
 * 2,000). Prints `BENCH hostile <program>_us_per_gas=<x> us` per program,
 * then `BENCH hostile max_us_per_gas=<x> us` (the worst, named on the line
 * before) and the load average.
 */
import { loadavg } from "node:os";
import { defaultChainData } from "../../src-node/contract/eval/runtimeContext.ts";
import { runContractCommand } from "../../src-node/contract/execute.ts";
import { createMemoryStorage } from "../../src-node/contract/storage/memoryStorage.ts";
import { makeObject } from "../../src-node/contract/values/value.ts";
import { HOSTILE_PROGRAMS } from "../support/hostilePrograms.ts";

const BLOCK_GAS_LIMIT = 150_000;
const scale = Number(process.env.WEFT_BENCH_SCALE ?? "1");
const gasLimit = Math.max(2_000, Math.round(BLOCK_GAS_LIMIT * scale));

function run(code: string, limit: number): { gas: number; ms: number; ok: boolean } {
  const start = performance.now();
  const out = runContractCommand({
    payload: { kind: "exec", code },
    data: makeObject([]),
    signers: [],
    chainData: defaultChainData,
    txHash: "hostile",
    storage: createMemoryStorage(),
    gasLimit: limit,
    namespacePolicy: { kind: "simple" },
  });
  // A failed command is charged its whole gas limit (docs/execution.md).
  return {
    gas: out.result.ok ? out.gasUsed : limit,
    ms: performance.now() - start,
    ok: out.result.ok,
  };
}

for (const p of HOSTILE_PROGRAMS) run(p.code, 2_000);

let worst = { name: "", usPerGas: 0 };
for (const p of HOSTILE_PROGRAMS) {
  const r = run(p.code, gasLimit);
  const usPerGas = (r.ms * 1000) / Math.max(1, r.gas);
  console.log(`BENCH hostile ${p.name.replaceAll("-", "_")}_us_per_gas=${usPerGas.toFixed(3)} us`);
  if (usPerGas > worst.usPerGas) worst = { name: p.name, usPerGas };
}
console.log(`# worst: ${worst.name} (gas limit ${gasLimit})`);
console.log(`BENCH hostile max_us_per_gas=${worst.usPerGas.toFixed(3)} us`);
console.log(`BENCH hostile load_average=${loadavg()[0]?.toFixed(2)} 1`);
