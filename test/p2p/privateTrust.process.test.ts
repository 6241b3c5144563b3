/**
 * Issue 34's findings as regression tests, with three `weft node` processes
 * (alice, bob, carol) on loopback and a fake peer served from this test
 * (docs/private.md "Trust model"). Pins come from every place a node takes
 * them: alice pins bob with `--trust-entity` and carol through the app's
 * "trust this entity" routes; bob pins alice and carol in its YAML file;
 * carol pins alice and bob with flags.
 *
 * 1. A fake peer (it proxies everything but /private to carol, so it looks
 *    like a node of the network) announcing entity "bob" with its own key
 *    gets nothing and is penalised; announcing bob's real key, it gets an
 *    envelope it cannot open (no marker, not decryptable with its key), and
 *    alice still counts only bob's signed receipt.
 * 2. Envelopes posted straight to bob claiming to be from alice are refused
 *    (another key, an entity bob does not trust, a trusted entity's key with
 *    a command "from alice") and nothing runs in bob's private state.
 * 3. A genuine envelope replayed to bob is refused, also after bob
 *    restarts; replayed to carol it is not hers.
 * 4. Carol changes her key: alice refuses the mismatching announcement
 *    (and penalises it) until she pins the new key in the app.
 */
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import { newEntityKeys } from "../../src-node/p2p/private/entityKeys.ts";
import { EMPTY_DIGEST } from "../../src-node/p2p/private/partyChain.ts";
import {
  newEnvelopeId,
  openEnvelope,
  parseEnvelope,
  sealEnvelope,
} from "../../src-node/p2p/private/sealedEnvelope.ts";
import { type NodeProcess, startNode, waitFor } from "../support/nodeProcess.ts";
import { privateCommand } from "../support/privateCommand.ts";
import {
  connectedTo,
  type EntityFolder,
  entityFolder,
  postEnvelope,
  postPact,
  trustFlags,
} from "../support/privateNodes.ts";

const PRIVATE = "/ledger/0.0/test-singleton/private/";
const nodes: NodeProcess[] = [];
let alice: NodeProcess;
let bob: NodeProcess;
let carol: NodeProcess;
const folders: Record<string, EntityFolder> = {};
const bobArgs: string[] = [];
const carolArgs: string[] = [];

/** What the fake peer announces, and the envelopes it was given. */
const fake = {
  server: undefined as Server | undefined,
  address: "",
  keys: newEntityKeys(),
  announce: { entity: "bob", publicKey: "" },
  envelopes: [] as unknown[],
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

async function startFake(target: () => NodeProcess): Promise<void> {
  fake.announce.publicKey = base64UrlEncode(fake.keys.publicKey);
  fake.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = req.url ?? "/";
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (url.startsWith(`${PRIVATE}entity`)) {
        json(200, fake.announce);
        return;
      }
      if (url.startsWith(`${PRIVATE}envelope`)) {
        fake.envelopes.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        json(200, { requestKey: "A".repeat(43) });
        return;
      }
      // Everything else from a real node: the fake passes for one.
      const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
      fetch(`${target().origin}${url}`, {
        method: req.method ?? "GET",
        headers: req.headers["content-type"] ? { "content-type": req.headers["content-type"] } : {},
        ...(body === undefined ? {} : { body }),
      })
        .then(async (r) => {
          const text = Buffer.from(await r.arrayBuffer());
          res
            .writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "" })
            .end(text);
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((r) => fake.server?.listen(0, "127.0.0.1", () => r()));
  fake.address = `127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
}

async function peerRow(n: NodeProcess, address: string): Promise<{ score: number } | undefined> {
  const r = (await (await n.app("peers")).json()) as {
    peers: { address: string; score: number }[];
  };
  return r.peers.find((p) => p.address === address);
}

async function poll(n: NodeProcess, key: string): Promise<Record<string, unknown>> {
  const r = await postPact(n, "poll", { requestKeys: [key] });
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as Record<string, unknown>;
}

/** An envelope for bob's key as `signer` would seal it, claiming `from`. */
function forged(command: unknown, from: string, signer = newEntityKeys()): unknown {
  const bobKey = folders.bob?.keys.publicKey as Uint8Array;
  const plain = new TextEncoder().encode(
    JSON.stringify({
      command,
      time: Date.now() * 1000,
      parties: { steps: 0, digest: EMPTY_DIGEST },
    }),
  );
  return sealEnvelope(
    plain,
    bobKey,
    {
      network: "test-singleton",
      chainId: 0,
      from,
      to: "bob",
      id: newEnvelopeId(),
      sentAt: Date.now() * 1000,
    },
    signer,
  );
}

beforeAll(async () => {
  for (const n of ["alice", "bob", "carol"]) folders[n] = entityFolder();
  const [a, b, c] = [folders.alice, folders.bob, folders.carol] as EntityFolder[] as [
    EntityFolder,
    EntityFolder,
    EntityFolder,
  ];
  const yaml = join(b.dataDir, "bob.yaml");
  writeFileSync(
    yaml,
    `p2p:\n  trusted-entities:\n    alice: ${a.publicKey}\n    carol: ${c.publicKey}\n`,
  );
  bobArgs.push("--entity", "bob", "--config", yaml);
  carolArgs.push("--entity", "carol", ...trustFlags({ alice: a, bob: b }));
  [bob, carol] = await Promise.all([
    startNode(bobArgs, b.dataDir),
    startNode(carolArgs, c.dataDir),
  ]);
  nodes.push(bob, carol);
  alice = await startNode(
    [
      "--entity",
      "alice",
      "--peer",
      bob.address,
      "--peer",
      carol.address,
      ...trustFlags({ bob: b }),
    ],
    a.dataDir,
  );
  nodes.push(alice);
  await startFake(() => carol);
  await waitFor("alice to connect to bob and carol", () =>
    connectedTo(alice, [bob.address, carol.address]),
  );
}, 300_000);

afterAll(async () => {
  fake.server?.close();
  await Promise.all(nodes.map((n) => n.stop()));
  for (const f of Object.values(folders)) rmSync(f.dataDir, { recursive: true, force: true });
}, 60_000);

describe("[p2p] /private: entities are keys, senders are proven", () => {
  it("prints each node's key at start and pins carol through the app after showing its fingerprint", async () => {
    const a = folders.alice as EntityFolder;
    expect(alice.stderr()).toContain(`/private entity alice, public key ${a.publicKey}`);
    const announced = await (await fetch(`${alice.base}/private/entity`)).json();
    expect(announced).toEqual({ entity: "alice", publicKey: a.publicKey });
    const carolSelf = (await (await carol.app("private")).json()) as {
      publicKey: string;
      fingerprint: string;
    };
    const body = { name: "carol", publicKey: carolSelf.publicKey };
    const check = await alice.app("private/trusted/check", { method: "POST", body });
    expect(check.status, await check.clone().text()).toBe(200);
    expect(await check.json()).toMatchObject({ fingerprint: carolSelf.fingerprint, pinned: false });
    expect((await alice.app("private/trusted", { method: "POST", body })).status).toBe(200);
    const listed = (await (await alice.app("private")).json()) as {
      trusted: { name: string; source: string; fingerprint: string }[];
    };
    expect(listed.trusted.map((t) => [t.name, t.source])).toEqual([
      ["bob", "configuration"],
      ["carol", "app"],
    ]);
    // A foreign Origin is refused by the app guard; nothing is pinned.
    const foreign = await fetch(`${alice.origin}/app/api/private/trusted`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: "http://evil.example",
        "x-weft-app-token": readFileSync(
          join(a.dataDir, "test-singleton", "app-token"),
          "utf8",
        ).trim(),
      },
      body: JSON.stringify({ name: "mallory", publicKey: carolSelf.publicKey }),
    });
    expect(foreign.status).toBe(403);
  }, 120_000);

  it("(1) gives a fake peer announcing bob nothing it can open, and penalises it", async () => {
    const add = await alice.app("peers", { method: "POST", body: { address: fake.address } });
    expect(add.status, await add.clone().text()).toBe(200);
    await waitFor("alice to connect to the fake", () => connectedTo(alice, [fake.address]));
    const marker = `weft-private-fake-${process.pid}-${Date.now()}`;
    const first = privateCommand({
      code: `(let ((n "${marker}")) 1)`,
      from: "alice",
      to: ["bob"],
    });
    const r = await postPact(alice, "private", first);
    expect(r.status, await r.clone().text()).toBe(200);
    expect(fake.envelopes).toEqual([]);
    expect((await poll(bob, first.hash))[first.hash]).toBeDefined();
    await waitFor("the fake to be penalised", async () =>
      ((await peerRow(alice, fake.address))?.score ?? 0) > 0 ? true : undefined,
    );
    expect(alice.stderr()).toContain(`peer ${fake.address} announces entity "bob" with key`);

    // Now with bob's real key: a copy is sealed for it, which it cannot open.
    fake.announce.publicKey = (folders.bob as EntityFolder).publicKey;
    const before = (await peerRow(alice, fake.address))?.score ?? 0;
    const sent = await waitFor(
      "alice to ask the fake again (its announcement is kept 10 s)",
      async () => {
        const c = privateCommand({
          code: `(let ((n "${marker}")) 2)`,
          from: "alice",
          to: ["bob"],
        });
        const answer = await postPact(alice, "private", c);
        expect(answer.status, await answer.clone().text()).toBe(200);
        return fake.envelopes.length > 0 ? c : undefined;
      },
      60_000,
    );
    expect((await poll(bob, sent.hash))[sent.hash]).toBeDefined();
    const captured = fake.envelopes[0];
    expect(JSON.stringify(captured)).not.toContain(marker);
    expect(() => openEnvelope(parseEnvelope(captured), fake.keys)).toThrow(
      expect.objectContaining({ code: "PRIVATE_UNDECRYPTABLE" }),
    );
    await waitFor("the fake to be penalised for answering without bob's receipt", async () =>
      ((await peerRow(alice, fake.address))?.score ?? 0) > before ? true : undefined,
    );
    fake.announce.entity = "nobody";
  }, 180_000);

  it("(2) refuses envelopes posted to bob that claim to be from alice; nothing runs", async () => {
    const marker = `weft-private-forged-${process.pid}-${Date.now()}`;
    const command = privateCommand({
      code: `(module forged G (defcap G () true) (defun m () "${marker}"))`,
      from: "alice",
      to: ["bob"],
    });
    const cases: [unknown, number, string][] = [
      [forged(command, "alice"), 403, 'not signed by the pinned key of "alice"'],
      [forged(command, "mallory"), 403, 'does not trust entity "mallory"'],
      [
        forged(command, "carol", (folders.carol as EntityFolder).keys),
        400,
        'the command says it is from "alice", the envelope is signed by "carol"',
      ],
    ];
    for (const [envelope, status, reason] of cases) {
      const r = await postEnvelope(bob, envelope);
      const text = await r.text();
      expect(r.status, text).toBe(status);
      expect(text).toContain(reason);
    }
    expect(await poll(bob, command.hash)).toEqual({});
    for (const file of filesUnder(join((folders.bob as EntityFolder).dataDir, "test-singleton"))) {
      expect(readFileSync(file).includes(marker), file).toBe(false);
    }
    expect(bob.stderr()).not.toContain(marker);
  }, 120_000);

  it("(3) refuses a genuine envelope replayed to bob, also after a restart; carol is not its recipient", async () => {
    const captured = fake.envelopes[0];
    expect(captured).toBeDefined();
    // Bob never saw this copy: the first delivery is taken (the command ran already, once).
    const first = await postEnvelope(bob, captured);
    expect(first.status, await first.clone().text()).toBe(200);
    const again = await postEnvelope(bob, captured);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("already delivered (a replay)");
    const toCarol = await postEnvelope(carol, captured);
    expect(toCarol.status).toBe(400);
    expect(await toCarol.text()).toContain('the envelope is for entity "bob"');

    await bob.stop();
    bob = await startNode(bobArgs, (folders.bob as EntityFolder).dataDir);
    nodes.push(bob);
    const afterRestart = await postEnvelope(bob, captured);
    expect(afterRestart.status).toBe(409);
  }, 180_000);

  it("(4) refuses carol's new key until alice pins it in the app", async () => {
    const c = folders.carol as EntityFolder;
    await carol.stop();
    // Carol moves her key away: her node makes a new one.
    renameSync(
      join(c.dataDir, "test-singleton", "entity-key.json"),
      join(c.dataDir, "test-singleton", "entity-key.old.json"),
    );
    carol = await startNode(carolArgs, c.dataDir);
    nodes.push(carol);
    const fresh = (await (await fetch(`${carol.base}/private/entity`)).json()) as {
      publicKey: string;
    };
    expect(fresh.publicKey).not.toBe(c.publicKey);
    expect(
      (await alice.app("peers", { method: "POST", body: { address: carol.address } })).status,
    ).toBe(200);
    await waitFor("alice to connect to carol's new address", () =>
      connectedTo(alice, [carol.address]),
    );
    const command = privateCommand({ code: "(+ 1 2)", from: "alice", to: ["carol"] });
    const refused = await postPact(alice, "private", command);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(
      `announced with another key by ${carol.address} (carol)`,
    );
    expect(await poll(carol, command.hash)).toEqual({});
    await waitFor("carol's node to be penalised for the mismatching key", async () =>
      ((await peerRow(alice, carol.address))?.score ?? 0) > 0 ? true : undefined,
    );

    // The rotation, explicitly: the old pin removed, the new one checked and pinned.
    const conflict = await alice.app("private/trusted", {
      method: "POST",
      body: { name: "carol", publicKey: fresh.publicKey },
    });
    expect(conflict.status).toBe(409);
    expect((await alice.app("private/trusted/carol", { method: "DELETE" })).status).toBe(204);
    const pinned = await alice.app("private/trusted", {
      method: "POST",
      body: { name: "carol", publicKey: fresh.publicKey },
    });
    expect(pinned.status, await pinned.clone().text()).toBe(200);
    const retry = await postPact(alice, "private", command);
    expect(retry.status, await retry.clone().text()).toBe(200);
    expect((await poll(carol, command.hash))[command.hash]).toMatchObject({
      result: { status: "success", data: 3 },
    });
  }, 240_000);
});
