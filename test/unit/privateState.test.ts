/**
 * A node's side of /private without peers (src-node/p2p/private/): the
 * entity key file (0600, kept across starts, an older X25519 file moved
 * aside, refused when not a key pair); the private state (runs commands as
 * steps, keeps what they define across commands and restarts, runs a
 * request key once, failures stored, each party set's running digest);
 * `PrivateService.receive` (accepts only envelopes signed by the pinned key
 * of their sender, whose command is from that sender, within the replay
 * window and never twice, even across a restart) and `send`'s refusals.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import {
  type EntityKeys,
  loadOrCreateEntityKeys,
  newEntityKeys,
} from "../../src-node/p2p/private/entityKeys.ts";
import { EMPTY_DIGEST, nextDigest } from "../../src-node/p2p/private/partyChain.ts";
import { readPrivateCommand } from "../../src-node/p2p/private/privateCommand.ts";
import { PrivateService, REPLAY_WINDOW_MICROS } from "../../src-node/p2p/private/privateService.ts";
import { PrivateState } from "../../src-node/p2p/private/privateState.ts";
import { newEnvelopeId, sealEnvelope } from "../../src-node/p2p/private/sealedEnvelope.ts";
import { privateCommand } from "../support/privateCommand.ts";
import { tempDir } from "../support/testNode.ts";

const NETWORK = "test-singleton";
const opened: { close(): void }[] = [];
afterEach(() => {
  for (const o of opened.splice(0)) o.close();
});

function resultOf(text: string | undefined): { status: string; data?: unknown; error?: unknown } {
  return (JSON.parse(text ?? "null") as { result: { status: string } }).result;
}

describe("[private] entity key file", () => {
  it("is created 0600 on first start and read back the same afterwards", () => {
    const path = join(tempDir(), "test-singleton", "entity-key.json");
    const a = loadOrCreateEntityKeys(path).keys;
    if (process.platform !== "win32") expect(statSync(path).mode & 0o777).toBe(0o600);
    const b = loadOrCreateEntityKeys(path).keys;
    expect(base64UrlEncode(b.publicKey)).toBe(base64UrlEncode(a.publicKey));
    expect(base64UrlEncode(b.secretKey)).toBe(base64UrlEncode(a.secretKey));
    expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject({
      version: 2,
      scheme: "ed25519",
      publicKey: base64UrlEncode(a.publicKey),
    });
  });

  it("moves an older X25519 key file aside and makes an identity key", () => {
    const dir = tempDir();
    const path = join(dir, "entity-key.json");
    const old = JSON.stringify({ version: 1, publicKey: "AAAA", secretKey: "AAAA" });
    writeFileSync(path, old);
    const loaded = loadOrCreateEntityKeys(path);
    expect(loaded.movedAside).toBe(join(dir, "entity-key.v1.json"));
    expect(readFileSync(join(dir, "entity-key.v1.json"), "utf8")).toBe(old);
    expect(JSON.parse(readFileSync(path, "utf8")).version).toBe(2);
  });

  it("refuses a file that is not a key pair instead of replacing it", () => {
    const dir = tempDir();
    const path = join(dir, "entity-key.json");
    for (const text of [
      "not json",
      "{}",
      JSON.stringify({ version: 2, scheme: "ed25519", publicKey: "AAAA", secretKey: "AAAA" }),
      JSON.stringify({
        version: 2,
        scheme: "ed25519",
        publicKey: base64UrlEncode(newEntityKeys().publicKey),
        secretKey: base64UrlEncode(newEntityKeys().secretKey),
      }),
    ]) {
      writeFileSync(path, text);
      expect(() => loadOrCreateEntityKeys(path)).toThrow(
        expect.objectContaining({ code: "PRIVATE_KEY_FILE_UNREADABLE" }),
      );
      expect(readFileSync(path, "utf8")).toBe(text);
    }
  });
});

describe("[private] private state", () => {
  it("runs commands as steps, keeps what they define, and runs a request key once", () => {
    const dir = tempDir();
    const state = PrivateState.open(dir, "bob");
    opened.push(state);
    const define = readPrivateCommand(
      privateCommand({
        code: '(module secret G (defcap G () true) (defun answer () 42)) (define-keyset "ks" (read-keyset "ks"))',
        from: "alice",
        to: ["bob"],
      }),
      NETWORK,
    );
    // A keyset read from data that is absent fails: the failure is stored, nothing else changes.
    const failed = resultOf(state.execute(0, define, 1_000_000).output);
    expect(failed.status).toBe("failure");
    const module = readPrivateCommand(
      privateCommand({
        code: "(module secret G (defcap G () true) (defun answer () 42))",
        from: "alice",
        to: ["bob"],
      }),
      NETWORK,
    );
    expect(resultOf(state.execute(0, module, 2_000_000).output).status).toBe("success");
    const call = readPrivateCommand(
      privateCommand({
        code: "(+ (secret.answer) (at 'block-height (chain-data)))",
        from: "alice",
        to: ["bob"],
      }),
      NETWORK,
    );
    const first = state.execute(0, call, 3_000_000);
    // The third step: block-height 2.
    expect(resultOf(first.output)).toEqual({ status: "success", data: 44 });
    // Run once: the same request key answers the stored result and its step.
    expect(state.execute(0, call, 9_000_000)).toEqual(first);
    expect(state.result(0, call.hash)).toBe(first.output);
    state.close();
    // Kept across a restart.
    const again = PrivateState.open(dir, "bob");
    opened.push(again);
    expect(again.result(0, call.hash)).toBe(first.output);
    const later = readPrivateCommand(
      privateCommand({ code: "(secret.answer)", from: "alice", to: ["bob"] }),
      NETWORK,
    );
    expect(resultOf(again.execute(0, later, 4_000_000).output)).toEqual({
      status: "success",
      data: 42,
    });
  });

  it("keeps a running digest per party set and chain", () => {
    const state = PrivateState.open(tempDir(), "bob");
    opened.push(state);
    const cmd = (to: string[]) =>
      readPrivateCommand(privateCommand({ code: "1", from: "alice", to }), NETWORK);
    const a = cmd(["bob"]);
    const b = cmd(["bob", "carol"]);
    const c = cmd(["bob"]);
    const ra = state.execute(0, a, 1);
    expect(ra.before).toEqual({ steps: 0, digest: EMPTY_DIGEST });
    expect(ra.after).toEqual({ steps: 1, digest: nextDigest(EMPTY_DIGEST, a.hash) });
    expect(state.execute(0, b, 2).parties).toBe("alice,bob,carol");
    const rc = state.execute(0, c, 3);
    expect(rc.before).toEqual(ra.after);
    expect(rc.after.digest).toBe(nextDigest(ra.after.digest, c.hash));
    // Another chain is another private chain.
    expect(state.execute(1, cmd(["bob"]), 4).before.steps).toBe(0);
    expect(state.partyChains().heads.map((h) => [h.chainId, h.parties, h.steps])).toEqual([
      [0, "alice,bob", 2],
      [0, "alice,bob,carol", 1],
      [1, "alice,bob", 1],
    ]);
  });
});

describe("[private] PrivateService without peers", () => {
  const alice = newEntityKeys();
  const carol = newEntityKeys();
  const pins = [
    { name: "alice", publicKey: base64UrlEncode(alice.publicKey) },
    { name: "carol", publicKey: base64UrlEncode(carol.publicKey) },
  ];

  function service(
    entity: string | undefined,
    keys = newEntityKeys(),
    networkDir = tempDir(),
    now?: () => number,
  ) {
    const s = new PrivateService({
      version: testSingletonVersion,
      entity,
      keys,
      trusted: entity === undefined ? [] : pins.filter((p) => p.name !== entity),
      networkDir,
      peers: () => [],
      now,
    });
    opened.push(s);
    return s;
  }

  function seal(
    command: unknown,
    bob: EntityKeys,
    o: {
      from?: string;
      signer?: EntityKeys;
      to?: string;
      sentAt?: number;
      recipient?: Uint8Array;
    } = {},
  ) {
    const plain = new TextEncoder().encode(
      JSON.stringify({ command, time: 5_000_000, parties: { steps: 0, digest: EMPTY_DIGEST } }),
    );
    return JSON.parse(
      JSON.stringify(
        sealEnvelope(
          plain,
          o.recipient ?? bob.publicKey,
          {
            network: NETWORK,
            chainId: 0,
            from: o.from ?? "alice",
            to: o.to ?? "bob",
            id: newEnvelopeId(),
            sentAt: o.sentAt ?? Date.now() * 1000,
          },
          o.signer ?? alice,
        ),
      ),
    ) as Record<string, unknown>;
  }

  it("receives an envelope signed by a pinned sender, answers a receipt and /poll", () => {
    const keys = newEntityKeys();
    const bob = service("bob", keys);
    const command = privateCommand({ code: "(+ 40 2)", from: "alice", to: ["bob"] });
    const receipt = bob.receive(seal(command, keys));
    expect(receipt).toMatchObject({
      requestKey: command.hash,
      parties: { steps: 1, digest: nextDigest(EMPTY_DIGEST, command.hash) },
    });
    expect(resultOf(bob.poll(0, [command.hash]).get(command.hash))).toEqual({
      status: "success",
      data: 42,
    });
    expect(bob.announced()).toEqual({ entity: "bob", publicKey: base64UrlEncode(keys.publicKey) });
  });

  it("refuses forged senders: an unpinned entity, another key, a command from someone else", () => {
    const keys = newEntityKeys();
    const bob = service("bob", keys);
    const command = privateCommand({ code: "(+ 1 2)", from: "alice", to: ["bob"] });
    const refusals: [Record<string, unknown>, string][] = [
      [seal(command, keys, { from: "mallory" }), "PRIVATE_UNTRUSTED_SENDER"],
      [seal(command, keys, { from: "bob", signer: keys }), "PRIVATE_UNTRUSTED_SENDER"],
      // "from alice", signed by a key that is not alice's pinned one.
      [seal(command, keys, { signer: newEntityKeys() }), "PRIVATE_BAD_SIGNATURE"],
      [seal(command, keys, { signer: carol }), "PRIVATE_BAD_SIGNATURE"],
      // Signed by carol (a trusted entity) but the command says alice.
      [seal(command, keys, { from: "carol", signer: carol }), "PRIVATE_NOT_SENDER"],
      // Alice's envelope sealed to another key than bob's.
      [seal(command, keys, { recipient: newEntityKeys().publicKey }), "PRIVATE_BAD_SIGNATURE"],
    ];
    for (const [envelope, code] of refusals) {
      expect(() => bob.receive(envelope), code).toThrow(expect.objectContaining({ code }));
    }
    const unsigned = { ...privateCommand({ code: "1", from: "alice", to: ["bob"] }), sigs: [] };
    expect(() => bob.receive(seal(unsigned, keys))).toThrow(
      expect.objectContaining({ code: "CMD_SIG_COUNT" }),
    );
    const forCarol = privateCommand({ code: "1", from: "alice", to: ["carol"] });
    expect(() => bob.receive(seal(forCarol, keys, { to: "carol" }))).toThrow(
      expect.objectContaining({ code: "PRIVATE_NOT_ADDRESSED" }),
    );
    expect(() => bob.receive(seal(forCarol, keys))).toThrow(
      expect.objectContaining({ code: "PRIVATE_NOT_ADDRESSED" }),
    );
    expect(() => service(undefined).receive(seal(forCarol, keys))).toThrow(
      expect.objectContaining({ code: "PRIVATE_NOT_ADDRESSED" }),
    );
    expect(bob.poll(0, [command.hash, unsigned.hash, forCarol.hash]).size).toBe(0);
    expect(bob.partyChains().heads).toEqual([]);
  });

  it("refuses a replay, also after a restart, and an envelope outside the replay window", () => {
    const keys = newEntityKeys();
    const dir = tempDir();
    let now = Date.now() * 1000;
    const bob = service("bob", keys, dir, () => now);
    const command = privateCommand({ code: "(+ 1 2)", from: "alice", to: ["bob"] });
    const envelope = seal(command, keys, { sentAt: now });
    bob.receive(envelope);
    expect(() => bob.receive(envelope)).toThrow(
      expect.objectContaining({
        code: "PRIVATE_REPLAYED",
        message: expect.stringContaining("already"),
      }),
    );
    bob.close();
    const again = service("bob", keys, dir, () => now);
    expect(() => again.receive(envelope)).toThrow(
      expect.objectContaining({ code: "PRIVATE_REPLAYED" }),
    );
    // A new envelope for a command that ran already: accepted, not run again.
    expect(again.receive(seal(command, keys, { sentAt: now })).parties.steps).toBe(1);
    now += REPLAY_WINDOW_MICROS + 1;
    expect(() => again.receive(envelope)).toThrow(
      expect.objectContaining({
        code: "PRIVATE_REPLAYED",
        message: expect.stringContaining("minutes ago"),
      }),
    );
    const later = privateCommand({ code: "(+ 1 2)", from: "alice", to: ["bob"] });
    expect(() => again.receive(seal(later, keys, { sentAt: now + 3 * 60_000_000 }))).toThrow(
      expect.objectContaining({
        code: "PRIVATE_BAD_ENVELOPE",
        type: expect.objectContaining({ field: "sentAt" }),
      }),
    );
    expect(again.poll(0, [later.hash]).size).toBe(0);
  });

  it("refuses to send without an entity, from another entity, to an unpinned or unknown entity", async () => {
    const command = privateCommand({ code: "1", from: "alice", to: ["bob"] });
    await expect(service(undefined).send(0, command)).rejects.toMatchObject({
      code: "PRIVATE_NO_ENTITY",
    });
    await expect(service("carol").send(0, command)).rejects.toMatchObject({
      code: "PRIVATE_NOT_SENDER",
    });
    await expect(service("alice").send(0, command)).rejects.toMatchObject({
      code: "PRIVATE_UNTRUSTED_ENTITY",
      message: expect.stringContaining('"bob"'),
    });
    const toCarol = privateCommand({ code: "1", from: "alice", to: ["carol"] });
    await expect(service("alice").send(0, toCarol)).rejects.toMatchObject({
      code: "PRIVATE_UNKNOWN_ENTITY",
      message: expect.stringContaining('"carol"'),
    });
    // Addressed to itself only: runs here.
    const self = privateCommand({ code: "(+ 1 2)", from: "alice", to: ["alice"] });
    const alice = service("alice");
    expect(await alice.send(0, self)).toEqual({ requestKeys: [self.hash] });
    expect(resultOf(alice.poll(0, [self.hash]).get(self.hash))).toEqual({
      status: "success",
      data: 3,
    });
    expect(existsSync(alice.trust.file)).toBe(true);
  });
});
