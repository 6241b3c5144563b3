/**
 * `GET/PUT /app/api/wallet/keystore` (docs/wallet.md): the node stores the wallet's
 * encrypted keystore as `<dataDir>/<network>/wallet/keystore.json`, mode 0600, replaced
 * atomically; it refuses what is not the keystore's shape, bodies over 1 MiB, and every
 * request the app API guard refuses (token, Origin, Host). `POST …/keystore/replace` puts
 * another wallet in its place after copying the stored file aside (kept, never deleted, and in
 * the next backup), with the same refusals, none of which touches either file. The shape is
 * checked with the renderer's own parser (src-node/walletFiles/keystoreFile.ts): a forged file
 * is answered 400 with the bad field named, as the app API's other 400s.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseStoredKeystore } from "../../renderer/src/features/wallet/endpoints.ts";
import { writeFileAtomic } from "../../src-node/store/atomicFile.ts";
import { keepCopyAside } from "../../src-node/store/keepAside.ts";
import { testKeystore } from "../support/keystoreFixture.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

const URL = "/app/api/wallet/keystore";
const REPLACE = "/app/api/wallet/keystore/replace";
const open: TestNode[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.cleanup();
});

async function node(): Promise<TestNode> {
  const t = await openTestNode();
  open.push(t);
  return t;
}

function headers(t: TestNode, extra: Record<string, string> = {}): Record<string, string> {
  return { host: "127.0.0.1:1848", "x-weft-app-token": t.node.appToken, ...extra };
}

const fileOf = (t: TestNode) => join(t.dir, "test-singleton", "wallet", "keystore.json");

describe("[api] the wallet's keystore file", () => {
  it("answers null before the first save, then the saved file; the file is 0600 in a 0700 folder", async () => {
    const t = await node();
    const empty = await t.request("GET", URL, { headers: headers(t) });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(JSON.parse(empty.body)).toEqual({ keystore: null });

    const keystore = testKeystore();
    const put = await t.request("PUT", URL, { headers: headers(t), body: keystore });
    expect(put.statusCode, put.body).toBe(200);
    expect(JSON.parse(put.body)).toEqual({ saved: true });
    expect(JSON.parse(readFileSync(fileOf(t), "utf8"))).toEqual(keystore);
    expect(statSync(fileOf(t)).mode & 0o777).toBe(0o600);
    expect(statSync(join(t.dir, "test-singleton", "wallet")).mode & 0o777).toBe(0o700);

    const got = await t.request("GET", URL, { headers: headers(t) });
    expect(JSON.parse(got.body)).toEqual({ keystore });

    // Replaced whole; no temporary file is left beside it.
    const second = testKeystore("another");
    await t.request("PUT", URL, { headers: headers(t), body: second });
    expect(JSON.parse(readFileSync(fileOf(t), "utf8"))).toEqual(second);
    expect(readdirSync(join(t.dir, "test-singleton", "wallet"))).toEqual(["keystore.json"]);
  });

  it("refuses what is not a keystore, naming the field, and keeps the stored file", async () => {
    const t = await node();
    const good = testKeystore();
    await t.request("PUT", URL, { headers: headers(t), body: good });
    const bad: [string, unknown][] = [
      ["version", { ...good, version: 2 }],
      ["format", { ...good, format: "other" }],
      ["ciphertext", { ...good, ciphertext: "not base64!" }],
      ["kdf.N", { ...good, kdf: { ...good.kdf, N: 1024 } }],
      [
        "public.keys.0.publicKey",
        {
          ...good,
          public: { ...good.public, keys: [{ ...good.public.keys[0], publicKey: "xy" }] },
        },
      ],
      ["secret", { ...good, secret: "plain" }],
      ["cipher", { ...good, cipher: undefined }],
      ["body", [good]],
    ];
    for (const [field, body] of bad) {
      const r = await t.request("PUT", URL, { headers: headers(t), body });
      expect(r.statusCode, `${field}: ${r.body}`).toBe(400);
      const answer = JSON.parse(r.body) as { code: string; message: string };
      expect(answer.code).toBe("APP_BAD_REQUEST");
      expect(answer.message, field).toContain(field === "body" ? "body" : field.split(".")[0]);
    }
    expect(JSON.parse(readFileSync(fileOf(t), "utf8"))).toEqual(good);
  });

  it("refuses a forged keystore with 400 naming the field: an extra member, a huge ciphertext, a wrong KDF parameter", async () => {
    const t = await node();
    const good = testKeystore();
    await t.request("PUT", URL, { headers: headers(t), body: good });
    const forged: [string, unknown][] = [
      ["secret: unknown field", { ...good, secret: "plain" }],
      ["kdf.iterations: unknown field", { ...good, kdf: { ...good.kdf, iterations: 1 } }],
      [
        "public.keys.0.secretKey: unknown field",
        {
          ...good,
          public: { ...good.public, keys: [{ ...good.public.keys[0], secretKey: "00" }] },
        },
      ],
      // Under the 1 MiB body limit, over the ciphertext's own.
      [
        "ciphertext: expected at most 600000 characters",
        { ...good, ciphertext: "A".repeat(900_000) },
      ],
      ["kdf.r: expected 8", { ...good, kdf: { ...good.kdf, r: 1 } }],
      ["kdf.p: expected 1 or 2 or 3 or 4", { ...good, kdf: { ...good.kdf, p: 64 } }],
      [
        "kdf.N: expected a power of two from 2^14 to 2^20",
        { ...good, kdf: { ...good.kdf, N: 2 ** 30 } },
      ],
      ["kdf.dkLen: expected 32", { ...good, kdf: { ...good.kdf, dkLen: 16 } }],
      ["body: expected an object", [good]],
    ];
    for (const [message, body] of forged) {
      for (const [method, url] of [
        ["PUT", URL],
        ["POST", REPLACE],
      ] as const) {
        const r = await t.request(method, url, { headers: headers(t), body });
        expect(r.statusCode, `${method} ${message}: ${r.body}`).toBe(400);
        expect(JSON.parse(r.body)).toEqual({ code: "APP_BAD_REQUEST", message });
      }
    }
    expect(JSON.parse(readFileSync(fileOf(t), "utf8"))).toEqual(good);
    expect(keptFiles(t)).toEqual([]);
    // What the node stores the renderer still reads, whole.
    const got = await t.request("GET", URL, { headers: headers(t) });
    expect(parseStoredKeystore(JSON.parse(got.body))).toEqual({ ok: true, value: good });
  });

  it("refuses bodies over 1 MiB with 413", async () => {
    const t = await node();
    const huge = { ...testKeystore(), ciphertext: "A".repeat(1024 * 1024 + 10) };
    const r = await t.request("PUT", URL, { headers: headers(t), body: huge });
    expect(r.statusCode, r.body).toBe(413);
    expect(JSON.parse(r.body).code).toBe("APP_BAD_REQUEST");
    expect(existsSync(fileOf(t))).toBe(false);
  });

  it("is behind the app guard: no token, a foreign Origin or Host are refused", async () => {
    const t = await node();
    const body = testKeystore();
    const noToken = await t.request("PUT", URL, { headers: { host: "127.0.0.1:1848" }, body });
    expect(noToken.statusCode).toBe(403);
    expect(JSON.parse(noToken.body).code).toBe("APP_TOKEN_REQUIRED");
    const origin = await t.request("GET", URL, {
      headers: headers(t, { origin: "http://evil.example" }),
    });
    expect(origin.statusCode).toBe(403);
    expect(JSON.parse(origin.body).code).toBe("APP_FORBIDDEN");
    const host = await t.request("PUT", URL, {
      headers: headers(t, { host: "evil.example:1848" }),
      body,
    });
    expect(host.statusCode).toBe(403);
    expect(existsSync(fileOf(t))).toBe(false);
  });

  it("answers 409 APP_KEYSTORE_UNREADABLE for a stored file that is not JSON", async () => {
    const t = await node();
    writeFileAtomic(fileOf(t), "{ broken");
    const r = await t.request("GET", URL, { headers: headers(t) });
    expect(r.statusCode, r.body).toBe(409);
    expect(JSON.parse(r.body).code).toBe("APP_KEYSTORE_UNREADABLE");
  });
});

const walletDir = (t: TestNode) => join(t.dir, "test-singleton", "wallet");
const keptFiles = (t: TestNode) =>
  readdirSync(walletDir(t)).filter((n) => n.startsWith("keystore-replaced-"));

describe("[api] replacing the wallet keeps the old keystore aside", () => {
  it("copies the stored file aside exactly, 0600, then stores the new one; none before: null", async () => {
    const t = await node();
    const first = testKeystore();
    const r0 = await t.request("POST", REPLACE, { headers: headers(t), body: first });
    expect(r0.statusCode, r0.body).toBe(200);
    expect(JSON.parse(r0.body)).toEqual({ replaced: true, keptAs: null });
    expect(JSON.parse(readFileSync(fileOf(t), "utf8"))).toEqual(first);
    const storedBytes = readFileSync(fileOf(t));

    const second = testKeystore("another");
    const r1 = await t.request("POST", REPLACE, { headers: headers(t), body: second });
    expect(r1.statusCode, r1.body).toBe(200);
    const { keptAs } = JSON.parse(r1.body) as { keptAs: string };
    expect(keptAs).toMatch(/^wallet\/keystore-replaced-\d{4}-\d\d-\d\dT[\d-]+Z(-\d+)?\.json$/);
    const kept = join(t.dir, "test-singleton", keptAs);
    expect(readFileSync(kept)).toEqual(storedBytes);
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(fileOf(t), "utf8"))).toEqual(second);
    // The wallet's GET answers the new one; the next backup holds the kept one too.
    const got = await t.request("GET", URL, { headers: headers(t) });
    expect(JSON.parse(got.body)).toEqual({ keystore: second });
    expect(t.node.appBackups?.sources().map((x) => x.name)).toContain(keptAs);

    // A third wallet: a second copy beside the first, which stays.
    await t.request("POST", REPLACE, { headers: headers(t), body: testKeystore("third") });
    expect(keptFiles(t)).toHaveLength(2);
    expect(readFileSync(kept)).toEqual(storedBytes);
  });

  it("refuses a body that is no keystore, a huge one and every request the guard refuses, touching nothing", async () => {
    const t = await node();
    const good = testKeystore();
    await t.request("PUT", URL, { headers: headers(t), body: good });
    const other = testKeystore("another");
    const refused = [
      { headers: headers(t), body: { ...other, version: 2 }, status: 400 },
      { headers: headers(t), body: { ...other, extra: "field" }, status: 400 },
      {
        headers: headers(t),
        body: { ...other, ciphertext: "A".repeat(1024 * 1024 + 10) },
        status: 413,
      },
      { headers: { host: "127.0.0.1:1848" }, body: other, status: 403 },
      { headers: headers(t, { origin: "http://evil.example" }), body: other, status: 403 },
      { headers: headers(t, { host: "evil.example:1848" }), body: other, status: 403 },
    ];
    for (const r of refused) {
      const answer = await t.request("POST", REPLACE, { headers: r.headers, body: r.body });
      expect(answer.statusCode, answer.body).toBe(r.status);
    }
    expect(JSON.parse(readFileSync(fileOf(t), "utf8"))).toEqual(good);
    expect(keptFiles(t)).toEqual([]);
  });
});

describe("[store] keepCopyAside", () => {
  it("never overwrites a copy made in the same millisecond, and keeps nothing of a missing file", () => {
    const dir = tempDir("weft-aside-");
    const path = join(dir, "keystore.json");
    const at = Date.UTC(2026, 11, 2, 4, 58, 10, 123);
    expect(keepCopyAside(path, at)).toBeUndefined();
    writeFileSync(path, "one");
    const a = keepCopyAside(path, at);
    writeFileSync(path, "two");
    const b = keepCopyAside(path, at);
    expect(a).toBe(join(dir, "keystore-replaced-2026-12-02T04-58-10-123Z.json"));
    expect(b).toBe(join(dir, "keystore-replaced-2026-12-02T04-58-10-123Z-2.json"));
    expect(readFileSync(a ?? "", "utf8")).toBe("one");
    expect(readFileSync(b ?? "", "utf8")).toBe("two");
    expect(readFileSync(path, "utf8")).toBe("two");
  });
});

describe("[store] writeFileAtomic", () => {
  it("replaces the file whole with mode 0600 and leaves no temporary file, even over a looser file", () => {
    const dir = tempDir("weft-atomic-");
    const path = join(dir, "sub", "f.json");
    writeFileAtomic(path, "one");
    writeFileSync(join(dir, "sub", "other"), "x", { mode: 0o644 });
    writeFileAtomic(path, "two");
    expect(readFileSync(path, "utf8")).toBe("two");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, "sub")).sort()).toEqual(["f.json", "other"]);
  });
});
