/**
 * /private between addressed nodes, with three `weft node` processes on
 * loopback (docs/private.md): alice sends a command addressed to bob; bob
 * (and alice, a party) answer /poll with its result; carol, a peer of alice
 * that is not addressed, does not know the request key, and no file of its
 * data folder nor its log holds a marker string from the command's code.
 * Refusals: an entity that is not pinned, public metadata, another sender.
 * Each node pins the others' keys with `--trust-entity` (docs/private.md).
 * No mining: private commands run on the private state, not in blocks.
 */
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedCommand } from "../support/execChain.ts";
import { type NodeProcess, startNode, waitFor } from "../support/nodeProcess.ts";
import { privateCommand } from "../support/privateCommand.ts";
import { connectedTo, entityFolder, postPact, trustFlags } from "../support/privateNodes.ts";

const MARKER = `weft-private-marker-${process.pid}-${Date.now()}`;

const nodes: NodeProcess[] = [];
let alice: NodeProcess;
let bob: NodeProcess;
let carol: NodeProcess;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

async function poll(n: NodeProcess, key: string): Promise<Record<string, unknown>> {
  const r = await postPact(n, "poll", { requestKeys: [key] });
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  const [a, b, c] = [entityFolder(), entityFolder(), entityFolder()];
  [bob, carol] = await Promise.all([
    startNode(["--entity", "bob", ...trustFlags({ alice: a })], b.dataDir),
    startNode(["--entity", "carol", ...trustFlags({ alice: a })], c.dataDir),
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
      ...trustFlags({ bob: b, carol: c }),
    ],
    a.dataDir,
  );
  nodes.push(alice);
  await waitFor("alice to connect to bob and carol", () =>
    connectedTo(alice, [bob.address, carol.address]),
  );
}, 300_000);

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  for (const n of nodes) rmSync(n.dataDir, { recursive: true, force: true });
}, 60_000);

describe("[p2p] /private between addressed nodes", () => {
  it("runs on bob and alice; carol holds neither the command nor its result", async () => {
    const command = privateCommand({
      code: `(let ((note "${MARKER}")) (if (= note "") 0 42))`,
      from: "alice",
      to: ["bob"],
    });
    const r = await postPact(alice, "private", command);
    expect(r.status, await r.clone().text()).toBe(200);
    expect(await r.json()).toEqual({ requestKeys: [command.hash] });
    for (const n of [bob, alice]) {
      const found = await poll(n, command.hash);
      expect(found[command.hash]).toMatchObject({
        reqKey: command.hash,
        result: { status: "success", data: 42 },
      });
    }
    expect(await poll(carol, command.hash)).toEqual({});
    // Carol never held the plain command: not in its databases, files or log.
    await carol.stop();
    for (const file of filesUnder(carol.dataDir)) {
      expect(readFileSync(file).includes(MARKER), file).toBe(false);
    }
    expect(carol.stderr()).not.toContain(MARKER);
    // Bob's private state holds it; its public chain state does not.
    const bobFiles = filesUnder(bob.dataDir);
    const withMarker = bobFiles.filter((f) => readFileSync(f).includes(MARKER));
    expect(
      withMarker.every((f) => f.includes(join("test-singleton", "private"))),
      String(withMarker),
    ).toBe(true);
    expect(bob.stderr()).not.toContain(MARKER);
    expect(alice.stderr()).not.toContain(MARKER);
    expect(alice.stderr()).toContain(`p2p: private: ${command.hash}`);
    expect(bob.stderr()).toContain(`p2p: private: ran ${command.hash} from alice`);
  }, 300_000);

  it("refuses an entity it does not trust, public metadata and another sender with 400 naming why", async () => {
    const unknown = await postPact(
      alice,
      "private",
      privateCommand({ code: "1", from: "alice", to: ["bob", "dave"] }),
    );
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toMatch(/cmd\.meta\.address\.to: this node does not trust "dave"/);
    const pub = await postPact(alice, "private", signedCommand({ code: "1" }));
    expect(pub.status).toBe(400);
    expect(await pub.text()).toContain("private metadata");
    const other = await postPact(
      alice,
      "private",
      privateCommand({ code: "1", from: "bob", to: ["bob"] }),
    );
    expect(other.status).toBe(400);
    expect(await other.text()).toContain("cmd.meta.address.from");
  }, 300_000);
});
