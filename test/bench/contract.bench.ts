/**
 * `npm run bench -- contract`: evaluations per second of small contract
 * programs (parse + compile + evaluate each time, as a transaction would), and
 * the same work written as plain TypeScript as a baseline; then token
 * transfers per second through the command entry point (a module call under a
 * managed capability with a scoped signature, two row updates, an event, gas,
 * commit), against a plain TypeScript transfer.
 *
 * Prints `BENCH contract <program>_per_s=<n> 1/s` and `<program>_ts_per_s`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRuntimeContext } from "../../src-node/contract/eval/createRuntimeContext.ts";
import { defaultChainData, type Signer } from "../../src-node/contract/eval/runtimeContext.ts";
import { evaluateSource } from "../../src-node/contract/evaluate.ts";
import { type ContractCommand, runContractCommand } from "../../src-node/contract/execute.ts";
import { createMemoryStorage } from "../../src-node/contract/storage/memoryStorage.ts";
import { pactValueFromJson, parseJsonExact } from "../../src-node/contract/values/json.ts";
import type { PactValue } from "../../src-node/contract/values/value.ts";

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

// ---------------------------------------------------------------------------
// Token transfers through runContractCommand

function data(json: string): PactValue {
  const j = parseJsonExact(json);
  const r = j === null ? null : pactValueFromJson(j);
  if (r === null || !r.ok) throw new Error(`bad benchmark JSON ${json}`);
  return r.value;
}

const fixtures = join(import.meta.dirname, "..", "contract", "fixtures");
const storage = createMemoryStorage();
const base = {
  data: data(
    '{"admin":["admin-key"],"token-admin":["admin-key"],"alice":["alice-key"],"bob":["bob-key"]}',
  ),
  chainData: defaultChainData,
  txHash: "Mk3PAn3UowqTLEQfNlol6GsXPe-kuOWJSCU0cbgbcs8",
  gasLimit: 1_000_000,
  namespacePolicy: { kind: "simple" },
  storage,
} satisfies Partial<ContractCommand>;
const admin: Signer = { pubKey: "admin-key", scheme: "ED25519", caps: [] };
for (const code of [
  `(define-namespace "free" (read-keyset "admin") (read-keyset "admin"))
   (namespace "free")
   (define-keyset "free.token-admin" (read-keyset "token-admin"))
   ${readFileSync(join(fixtures, "fungible.pact"), "utf8")}
   ${readFileSync(join(fixtures, "token.pact"), "utf8")}`,
  `(free.token.create-account "alice" (read-keyset "alice"))
   (free.token.create-account "bob" (read-keyset "bob"))
   (free.token.mint "alice" (read-keyset "alice") 1000000000.0)`,
]) {
  const r = runContractCommand({ ...base, payload: { kind: "exec", code }, signers: [admin] });
  if (!r.result.ok) throw new Error(`benchmark setup failed: ${r.result.error.message}`);
}
const transferCmd: ContractCommand = {
  ...base,
  payload: { kind: "exec", code: '(free.token.transfer "alice" "bob" 1.0)' },
  signers: [
    {
      pubKey: "alice-key",
      scheme: "ED25519",
      caps: [{ name: "free.token.TRANSFER", args: [data('"alice"'), data('"bob"'), data("1.0")] }],
    },
  ],
};
const balances = new Map<string, number>([
  ["alice", 1e9],
  ["bob", 0],
]);
const transfer = perSecond(() => {
  const r = runContractCommand(transferCmd);
  if (!r.result.ok) throw new Error(`transfer failed: ${r.result.error.message}`);
  return r.gasUsed;
});
const transferTs = perSecond(() => {
  const a = balances.get("alice") ?? 0;
  if (a < 1) throw new Error("insufficient");
  balances.set("alice", a - 1);
  balances.set("bob", (balances.get("bob") ?? 0) + 1);
  return balances.size;
});
console.log(`BENCH contract transfer_per_s=${transfer.toFixed(1)} 1/s`);
console.log(`BENCH contract transfer_ts_per_s=${transferTs.toFixed(1)} 1/s`);
