/**
 * The Node page's private entities (src-node/api/routes/appPrivateRoutes.ts,
 * p2p/private/trustedEntities.ts): this node's entity, key and fingerprint;
 * the pinned entities (configured and from the app); "trust this entity"
 * checked first, then pinned, kept in `private/trusted-entities.json` across
 * restarts; refusals named (a bad name or key, this node's own entity, a
 * configured pin, another key for a pinned name); a pin file that is not one
 * and a configured key that is not a key stop the start.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { ed25519 } from "@noble/curves/ed25519.js";
import type { LightMyRequestResponse } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import { entityFingerprint } from "../../src-node/p2p/private/entityIdentity.ts";
import { newEntityKeys } from "../../src-node/p2p/private/entityKeys.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

const open: TestNode[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.cleanup();
});

const bob = newEntityKeys();
const carol = newEntityKeys();
const key = (k: { publicKey: Uint8Array }) => base64UrlEncode(k.publicKey);

async function node(dir = tempDir()): Promise<TestNode> {
  const t = await openTestNode({
    dir,
    p2p: { entity: "alice", trustedEntities: [`bob=${key(bob)}`] },
  });
  open.push(t);
  return t;
}

function call(
  t: TestNode,
  method: "GET" | "POST" | "DELETE",
  path: string,
  body?: unknown,
): Promise<LightMyRequestResponse> {
  return t.request(method, `/app/api/private${path}`, {
    headers: { "x-weft-app-token": t.node.appToken, host: "127.0.0.1:1848" },
    ...(body === undefined ? {} : { body }),
  });
}

function refused(r: LightMyRequestResponse, status: number, code: string, text: string): void {
  expect(r.statusCode, r.body).toBe(status);
  const body = JSON.parse(r.body) as { code: string; message: string };
  expect(body.code).toBe(code);
  expect(body.message).toContain(text);
}

describe("[api] /app/api/private", () => {
  it("shows this node's entity and the pinned entities; pins after a check", async () => {
    const dir = tempDir();
    const t = await node(dir);
    const me = t.node.private.identity();
    const shown = JSON.parse((await call(t, "GET", "")).body);
    expect(shown).toEqual({
      entity: "alice",
      publicKey: me.publicKey,
      fingerprint: me.fingerprint,
      trusted: [
        {
          name: "bob",
          publicKey: key(bob),
          fingerprint: entityFingerprint(bob.publicKey),
          source: "configuration",
          addedAt: null,
        },
      ],
      chains: [],
      diverged: false,
    });
    const body = { name: "carol", publicKey: key(carol) };
    const check = await call(t, "POST", "/trusted/check", body);
    expect(JSON.parse(check.body)).toMatchObject({
      fingerprint: entityFingerprint(carol.publicKey),
      pinned: false,
    });
    // Checking stores nothing.
    expect(t.node.private.trust.keyOf("carol")).toBeUndefined();
    const pinned = await call(t, "POST", "/trusted", body);
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(JSON.parse(pinned.body)).toMatchObject({ name: "carol", source: "app" });
    // The same pin again changes nothing.
    expect((await call(t, "POST", "/trusted", body)).statusCode).toBe(200);
    const file = JSON.parse(readFileSync(t.node.private.trust.file, "utf8"));
    expect(file.entities.map((e: { name: string }) => e.name)).toEqual(["carol"]);
    await t.node.close();
    open.splice(0);
    const again = await node(dir);
    const names = JSON.parse((await call(again, "GET", "")).body).trusted.map(
      (e: { name: string; source: string }) => [e.name, e.source],
    );
    expect(names).toEqual([
      ["bob", "configuration"],
      ["carol", "app"],
    ]);
    expect((await call(again, "DELETE", "/trusted/carol")).statusCode).toBe(204);
    expect(again.node.private.trust.keyOf("carol")).toBeUndefined();
  });

  it("names what is wrong with a pin, and keeps configured pins", async () => {
    const t = await node();
    const smallOrder = base64UrlEncode(ed25519.Point.ZERO.toBytes());
    const cases: [unknown, number, string, string][] = [
      [{ name: "a b", publicKey: key(carol) }, 400, "PRIVATE_BAD_TRUSTED_ENTITY", "name:"],
      [{ name: "carol", publicKey: "short" }, 400, "PRIVATE_BAD_TRUSTED_ENTITY", "publicKey:"],
      [{ name: "carol", publicKey: smallOrder }, 400, "PRIVATE_BAD_TRUSTED_ENTITY", "small order"],
      [{ name: "alice", publicKey: key(carol) }, 409, "PRIVATE_TRUST_CONFLICT", "own entity"],
      [{ name: "bob", publicKey: key(carol) }, 409, "PRIVATE_TRUST_CONFLICT", "configuration"],
    ];
    for (const [body, status, code, text] of cases) {
      refused(await call(t, "POST", "/trusted/check", body), status, code, text);
      refused(await call(t, "POST", "/trusted", body), status, code, text);
    }
    expect(
      (await call(t, "POST", "/trusted", { name: "carol", publicKey: key(carol) })).statusCode,
    ).toBe(200);
    refused(
      await call(t, "POST", "/trusted", { name: "carol", publicKey: key(bob) }),
      409,
      "PRIVATE_TRUST_CONFLICT",
      "remove that pin first",
    );
    refused(
      await call(t, "DELETE", "/trusted/bob"),
      409,
      "PRIVATE_TRUST_CONFLICT",
      "configuration",
    );
    refused(await call(t, "DELETE", "/trusted/dave"), 404, "PRIVATE_NOT_TRUSTED", '"dave"');
    expect(t.node.private.trust.keyOf("bob")).toEqual(bob.publicKey);
  });

  it("stops the start on a pin file that is not one, or a configured key that is not a key", async () => {
    const dir = tempDir();
    const t = await node(dir);
    const file = t.node.private.trust.file;
    await t.node.close();
    open.splice(0);
    writeFileSync(file, '{"version": 1, "entities": [{"name": "x"}]}');
    await expect(node(dir)).rejects.toMatchObject({ code: "PRIVATE_TRUST_FILE_UNREADABLE" });
    expect(readFileSync(file, "utf8")).toContain('"x"');
    const smallOrder = base64UrlEncode(ed25519.Point.ZERO.toBytes());
    await expect(
      openTestNode({ p2p: { entity: "alice", trustedEntities: [`bob=${smallOrder}`] } }),
    ).rejects.toMatchObject({
      code: "PRIVATE_BAD_TRUSTED_ENTITY",
      message: expect.stringContaining("p2p.trusted-entities.bob"),
    });
  });
});
