/**
 * Fuzz (issue 15): random well-formed commands with random code (nested
 * calls of the natives that build, copy, hash and compare values, loops,
 * `let`s, literals, and text that does not parse) sent with /send to random
 * chains while mining through the mining API. No answer is a 5xx, every
 * chain keeps advancing. Kept small for CI (a
 * fixed seed; WEFT_FUZZ_RUNS raises the count).
 */
import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedCommand } from "../support/execChain.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const RUNS = Number(process.env.WEFT_FUZZ_RUNS ?? "24");
const KEY = "cd".repeat(32);
const MINER = { account: `k:${KEY}`, predicate: "keys-all", "public-keys": [KEY] };

const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.integer({ min: -1000, max: 100_000 }).map(String),
    fc.string({ maxLength: 12 }).map((s) => JSON.stringify(s)),
    fc.constantFrom("x", "true", "1.5", "[]", "{}", '{"a": 1}', "(read-msg)", "CHARSET_ASCII"),
    fc
      .tuple(
        fc.constantFrom(
          "+",
          "=",
          "<",
          "hash",
          "length",
          "reverse",
          "sort",
          "distinct",
          "str-to-list",
          "concat",
          "format",
          "make-list",
          "take",
          "drop",
          "enumerate",
          "contains",
          "at",
          "int-to-str",
          "base64-encode",
          "is-charset",
          "*",
          "^",
          "shift",
          "typeof",
        ),
        fc.array(tie("e"), { minLength: 1, maxLength: 3 }),
      )
      .map(([f, args]) => `(${f} ${args.join(" ")})`),
    fc
      .tuple(tie("e"), fc.integer({ min: 1, max: 40 }))
      .map(([seed, n]) => `(fold (lambda (s x) (+ s s)) ${seed} (enumerate 1 ${n}))`),
    fc.tuple(tie("e"), tie("e")).map(([l, body]) => `(map (lambda (x) ${body}) ${l})`),
    fc.tuple(tie("e"), tie("e")).map(([v, body]) => `(let ((x ${v})) ${body})`),
  ),
})).e;

const code = fc.oneof(
  { weight: 9, arbitrary: expr },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

describe("[api] fuzz: random commands with random code while mining", () => {
  let t: TestNode;
  const responses: LightMyRequestResponse[] = [];

  beforeAll(async () => {
    t = await openTestNode({ mining: { apiEnabled: true } });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("never answers 5xx, and every chain keeps advancing", async () => {
    const chains = t.node.version.chainIds;
    const cases = fc.sample(
      fc.record({
        code,
        chain: fc.constantFrom(...chains),
        gasLimit: fc.integer({ min: 1, max: 20_000 }),
      }),
      { numRuns: RUNS, seed: 15 },
    );
    const heights = () =>
      new Map([...t.node.blocks.cut().values()].map((h) => [h.chainId, h.height]));
    const before = heights();
    for (const [i, c] of cases.entries()) {
      const cmd = signedCommand({
        code: c.code,
        chainId: c.chain,
        gasLimit: c.gasLimit,
        ttl: 172_800,
      });
      responses.push(
        await t.request("POST", `${t.base}/chain/${c.chain}/pact/api/v1/send`, {
          body: { cmds: [cmd] },
        }),
      );
      if (i % 6 !== 5) continue;
      // Mine a round now and then, while commands keep arriving.
      for (const chain of chains) {
        const work = await t.node.server.inject({
          method: "GET",
          url: `${t.base}/mining/work?chain=${chain}`,
          headers: { "content-type": "application/json" },
          payload: JSON.stringify(MINER),
        });
        responses.push(work);
        if (work.statusCode !== 200) continue;
        responses.push(
          await t.node.server.inject({
            method: "POST",
            url: `${t.base}/mining/solved`,
            headers: { "content-type": "application/octet-stream" },
            payload: work.rawPayload.subarray(36),
          }),
        );
      }
    }
    const bad = responses
      .filter((r) => r.statusCode >= 500)
      .map((r) => `${r.statusCode} ${r.body}`);
    expect(bad).toEqual([]);
    for (const [chain, h] of heights())
      expect(h, `chain ${chain}`).toBeGreaterThan(before.get(chain) ?? 0);
  });
});
