/**
 * Golden pages: the bytes of every page route on a fixed database (the
 * shared forked chain of test/support/forkedChain.ts, built deterministically
 * from the genesis), in every encoding (base64url headers, object headers,
 * hashes, full blocks), ascending (with height bounds) and branch queries
 * (main and orphan upper bounds, lower bounds), following each `next` cursor
 * to the end. The expected bodies are test/fixtures/pages/golden-pages.json,
 * written from the code before header pages were served from stored texts;
 * any change to how a page is produced must keep them byte-identical.
 * `WEFT_UPDATE_GOLDEN=1` rewrites the file (only for a deliberate change of
 * the wire format).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiFixture, openForkedNode, withQuery } from "../support/apiFixture.ts";

const GOLDEN = join(import.meta.dirname, "..", "fixtures", "pages", "golden-pages.json");
const BASE64 = "application/json";
const OBJECT = "application/json;blockheader-encoding=object";

type Answer = { request: string; status: number; type: string; body: string };

let t: ApiFixture;
beforeAll(async () => {
  t = await openForkedNode();
}, 120_000);
afterAll(async () => {
  await t?.cleanup();
});

/** Every page of a query, following `next` until it is null. */
async function follow(
  name: string,
  method: "GET" | "POST",
  path: string,
  query: Record<string, string | number | undefined>,
  accept: string,
  body?: unknown,
): Promise<Answer[]> {
  const out: Answer[] = [];
  let next: string | undefined;
  for (let i = 0; i < 50; i++) {
    const url = withQuery(`${t.base}${path}`, { ...query, next });
    const r = await t.request(method, url, {
      headers: { accept },
      ...(body === undefined ? {} : { body }),
    });
    out.push({
      request: `${name} ${method} ${url.slice(t.base.length)} [${accept}]`,
      status: r.statusCode,
      type: String(r.headers["content-type"]),
      body: r.body,
    });
    if (r.statusCode !== 200) break;
    const n = (JSON.parse(r.body) as { next: string | null }).next;
    if (n === null) break;
    next = n;
  }
  return out;
}

async function allAnswers(): Promise<Answer[]> {
  const c = t.chain;
  const hash = (chainId: number, height: number): string => c.mainAt(chainId, height).hash;
  const orphan = c.orphans.get(0)?.hash ?? "";
  const branches: { name: string; body: unknown }[] = [
    { name: "to-head", body: { lower: [], upper: [hash(0, 8)] } },
    { name: "orphan-above-4", body: { lower: [hash(0, 4)], upper: [orphan] } },
    { name: "two-uppers", body: { lower: [hash(0, 2)], upper: [hash(0, 8), orphan] } },
  ];
  const ascending: { name: string; query: Record<string, string | number | undefined> }[] = [
    { name: "all", query: { limit: 4 } },
    { name: "bounded", query: { limit: 3, minheight: 2, maxheight: 7 } },
    { name: "default-limit", query: {} },
  ];
  const out: Answer[] = [];
  for (const chainId of [0, 3]) {
    for (const [route, accepts] of [
      ["header", [BASE64, OBJECT]],
      ["hash", [BASE64]],
      ["block", [BASE64]],
    ] as const) {
      // Full blocks are large: chain 0 only.
      if (route === "block" && chainId !== 0) continue;
      for (const accept of accepts) {
        for (const a of ascending) {
          out.push(...(await follow(a.name, "GET", `/chain/${chainId}/${route}`, a.query, accept)));
        }
        if (chainId !== 0) continue;
        for (const b of branches) {
          out.push(
            ...(await follow(
              b.name,
              "POST",
              `/chain/${chainId}/${route}/branch`,
              { limit: 3 },
              accept,
              b.body,
            )),
          );
        }
      }
    }
  }
  return out;
}

describe("[api] golden pages", () => {
  it("answers every page route byte for byte as the golden file", async () => {
    const answers = await allAnswers();
    if (process.env.WEFT_UPDATE_GOLDEN === "1") {
      writeFileSync(GOLDEN, `${JSON.stringify(answers, null, 1)}\n`);
    }
    const golden = JSON.parse(readFileSync(GOLDEN, "utf8")) as Answer[];
    expect(answers.length).toBe(golden.length);
    for (const [i, a] of answers.entries()) expect(a, a.request).toEqual(golden[i]);
    // The golden file covers what it claims: cursors followed, orphans, every encoding.
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.request.includes("next=")).length).toBeGreaterThan(10);
    expect(new Set(answers.map((a) => a.type)).size).toBe(2);
  });
});
