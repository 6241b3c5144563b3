/**
 * `GET/PUT /app/api/wallet/keystore` (docs/wallet.md): the node stores the wallet's
 * encrypted keystore as `<dataDir>/<network>/wallet/keystore.json`, mode 0600, replaced
 * atomically; it refuses what is not the keystore's shape, bodies over 1 MiB, and every
 * request the app API guard refuses (token, Origin, Host).
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../src-node/store/atomicFile.ts";
import { testKeystore } from "../support/keystoreFixture.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

const URL = "/app/api/wallet/keystore";
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
