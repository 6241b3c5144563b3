/**
 * `npm run bench -- contract`: evaluations per second of small contract
 * programs (parse + compile + evaluate each time, as a transaction would), and
 * the same work written as plain TypeScript as a baseline.
 *
 * Prints `BENCH contract <program>_per_s=<n> 1/s` and `<program>_ts_per_s`.
 */
import { createRuntimeContext } from "../../src-node/contract/eval/createRuntimeContext.ts";
import { evaluateSource } from "../../src-node/contract/evaluate.ts";

const SECONDS = Number(process.env.WEFT_BENCH_SECONDS ?? "1.5");

function perSecond(work: () => unknown): number {
  // Warm up, then time whole batches until the budget is spent.
  for (let i = 0; i < 5; i++) work();
  const start = performance.now();
  let n = 0;
  let sink: unknown;
  while (performance.now() - start < SECONDS * 1000) {
    sink = work();
    n++;
  }
  if (sink === undefined) throw new Error("no result");
  return n / ((performance.now() - start) / 1000);
}

function contract(source: string): () => unknown {
  return () => {
    const r = evaluateSource(source, { ctx: createRuntimeContext() });
    if (!r.ok) throw new Error(`benchmark program failed: ${r.error.message}`);
    return r.value;
  };
}

const programs: { name: string; source: string; ts: () => unknown }[] = [
  {
    name: "fold",
    source: "(fold (+) 0 (enumerate 1 10000))",
    ts: () => {
      const xs: bigint[] = [];
      for (let i = 1n; i <= 10000n; i++) xs.push(i);
      return xs.reduce((a, b) => a + b, 0n);
    },
  },
  {
    name: "format",
    source:
      '(map (lambda (i) (format "item {} of {}: {} {}" [i 100 (* i 1.5) ["a" i]])) (enumerate 1 100))',
    ts: () => {
      const out: string[] = [];
      for (let i = 1; i <= 100; i++)
        out.push(`item ${i} of 100: ${(i * 1.5).toFixed(1)} ["a", ${i}]`);
      return out;
    },
  },
  {
    name: "object",
    source:
      '(map (lambda (i) (+ {"id": i, "name": (int-to-str 16 i), "balance": (* i 1.5)} {"kind": "account", "id": 0})) (enumerate 1 1000))',
    ts: () => {
      const out: Record<string, unknown>[] = [];
      for (let i = 1; i <= 1000; i++) {
        out.push({
          ...{ kind: "account", id: 0 },
          ...{ id: BigInt(i), name: i.toString(16), balance: i * 1.5 },
        });
      }
      return out;
    },
  },
];

for (const p of programs) {
  const c = perSecond(contract(p.source));
  const t = perSecond(p.ts);
  console.log(`BENCH contract ${p.name}_per_s=${c.toFixed(1)} 1/s`);
  console.log(`BENCH contract ${p.name}_ts_per_s=${t.toFixed(1)} 1/s`);
}
