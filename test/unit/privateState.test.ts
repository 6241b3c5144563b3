/**
 * A node's side of /private without peers (src-node/p2p/private/): the
 * entity key file (0600, kept across starts, refused when not a key pair);
 * the private state (runs commands as steps, keeps what they define across
 * commands and restarts, runs a request key once, failures stored);
 * `PrivateService.receive` (opens an envelope sealed for its key, checks the
 * command, refuses one not addressed to it) and `send`'s refusals.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import { loadOrCreateEntityKeys, newEntityKeys } from "../../src-node/p2p/private/entityKeys.ts";
import { readPrivateCommand } from "../../src-node/p2p/private/privateCommand.ts";
import { PrivateService } from "../../src-node/p2p/private/privateService.ts";
import { PrivateState } from "../../src-node/p2p/private/privateState.ts";
import { sealEnvelope } from "../../src-node/p2p/private/sealedEnvelope.ts";
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
    const a = loadOrCreateEntityKeys(path);
    if (process.platform !== "win32") expect(statSync(path).mode & 0o777).toBe(0o600);
    const b = loadOrCreateEntityKeys(path);
    expect(base64UrlEncode(b.publicKey)).toBe(base64UrlEncode(a.publicKey));
    expect(base64UrlEncode(b.secretKey)).toBe(base64UrlEncode(a.secretKey));
    expect(readFileSync(path, "utf8")).toContain(base64UrlEncode(a.publicKey));
  });

  it("refuses a file that is not a key pair instead of replacing it", () => {
    const dir = tempDir();
    const path = join(dir, "entity-key.json");
    for (const text of [
      "not json",
      "{}",
      JSON.stringify({ version: 1, publicKey: "AAAA", secretKey: "AAAA" }),
      JSON.stringify({
        version: 1,
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
    const failed = resultOf(state.execute(0, define, 1_000_000));
    expect(failed.status).toBe("failure");
    const module = readPrivateCommand(
      privateCommand({
        code: "(module secret G (defcap G () true) (defun answer () 42))",
        from: "alice",
        to: ["bob"],
      }),
      NETWORK,
    );
    expect(resultOf(state.execute(0, module, 2_000_000)).status).toBe("success");
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
    expect(resultOf(first)).toEqual({ status: "success", data: 44 });
    // Run once: the same request key answers the stored result.
    expect(state.execute(0, call, 9_000_000)).toBe(first);
    expect(state.result(0, call.hash)).toBe(first);
    state.close();
    // Kept across a restart.
    const again = PrivateState.open(dir, "bob");
    opened.push(again);
    expect(again.result(0, call.hash)).toBe(first);
    const later = readPrivateCommand(
      privateCommand({ code: "(secret.answer)", from: "alice", to: ["bob"] }),
      NETWORK,
    );
    expect(resultOf(again.execute(0, later, 4_000_000))).toEqual({ status: "success", data: 42 });
  });
});

describe("[private] PrivateService without peers", () => {
  function service(entity: string | undefined, keys = newEntityKeys()) {
    const s = new PrivateService({
      version: testSingletonVersion,
      entity,
      keys,
      networkDir: tempDir(),
      peers: () => [],
    });
    opened.push(s);
    return s;
  }

  it("receives an envelope sealed for its key and answers /poll", () => {
    const keys = newEntityKeys();
    const bob = service("bob", keys);
    const command = privateCommand({ code: "(+ 40 2)", from: "alice", to: ["bob"] });
    const plain = new TextEncoder().encode(JSON.stringify({ command, time: 5_000_000 }));
    const env = sealEnvelope(plain, keys.publicKey, { network: NETWORK, chainId: 0, to: "bob" });
    expect(bob.receive(JSON.parse(JSON.stringify(env)))).toEqual({ requestKey: command.hash });
    expect(resultOf(bob.poll(0, [command.hash]).get(command.hash))).toEqual({
      status: "success",
      data: 42,
    });
    expect(bob.announced()).toEqual({ entity: "bob", publicKey: base64UrlEncode(keys.publicKey) });
  });

  it("refuses envelopes that are not for it, or whose command does not address it", () => {
    const keys = newEntityKeys();
    const bob = service("bob", keys);
    const seal = (command: unknown, to = "bob", publicKey = keys.publicKey) =>
      sealEnvelope(new TextEncoder().encode(JSON.stringify({ command, time: 1 })), publicKey, {
        network: NETWORK,
        chainId: 0,
        to,
      });
    const forCarol = privateCommand({ code: "1", from: "alice", to: ["carol"] });
    expect(() => bob.receive(seal(forCarol, "carol"))).toThrow(
      expect.objectContaining({ code: "PRIVATE_NOT_ADDRESSED" }),
    );
    expect(() => bob.receive(seal(forCarol))).toThrow(
      expect.objectContaining({ code: "PRIVATE_NOT_ADDRESSED" }),
    );
    expect(() => bob.receive(seal(forCarol, "bob", newEntityKeys().publicKey))).toThrow(
      expect.objectContaining({ code: "PRIVATE_UNDECRYPTABLE" }),
    );
    const unsigned = { ...privateCommand({ code: "1", from: "alice", to: ["bob"] }), sigs: [] };
    expect(() => bob.receive(seal(unsigned))).toThrow(
      expect.objectContaining({ code: "CMD_SIG_COUNT" }),
    );
    expect(bob.poll(0, [forCarol.hash, unsigned.hash]).size).toBe(0);
    expect(() => service(undefined).receive(seal(forCarol))).toThrow(
      expect.objectContaining({ code: "PRIVATE_NOT_ADDRESSED" }),
    );
  });

  it("refuses to send without an entity, from another entity, or to an unknown entity", async () => {
    const command = privateCommand({ code: "1", from: "alice", to: ["bob"] });
    await expect(service(undefined).send(0, command)).rejects.toMatchObject({
      code: "PRIVATE_NO_ENTITY",
    });
    await expect(service("carol").send(0, command)).rejects.toMatchObject({
      code: "PRIVATE_NOT_SENDER",
    });
    await expect(service("alice").send(0, command)).rejects.toMatchObject({
      code: "PRIVATE_UNKNOWN_ENTITY",
      message: expect.stringContaining('"bob"'),
    });
    // Addressed to itself only: runs here.
    const self = privateCommand({ code: "(+ 1 2)", from: "alice", to: ["alice"] });
    const alice = service("alice");
    expect(await alice.send(0, self)).toEqual({ requestKeys: [self.hash] });
    expect(resultOf(alice.poll(0, [self.hash]).get(self.hash))).toEqual({
      status: "success",
      data: 3,
    });
  });
});
