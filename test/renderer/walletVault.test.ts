/**
 * The vault worker's logic (vaultCore.ts) and its client (vaultClient.ts) over an in-thread
 * transport: create → sign → lock clears (signing refused) → unlock; a wrong password is
 * refused and, after three, throttled; the idle time-out locks; keys added, imported and
 * removed are sealed into the file; change password; reveal the phrase with the password;
 * messages that do not parse are refused; answers never carry a secret key.
 */
import { describe, expect, it } from "vitest";
import {
  createVaultClient,
  VaultRequestError,
} from "../../renderer/src/features/wallet/vault/vaultClient.ts";
import {
  type VaultClock,
  VaultCore,
  VaultError,
} from "../../renderer/src/features/wallet/vault/vaultCore.ts";
import { parseVaultRequest } from "../../renderer/src/features/wallet/vault/vaultProtocol.ts";
import { commandModel } from "../../src-node/command/commandModel.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import type { KeystoreFile } from "../../src-node/walletFiles/keystoreFile.ts";
import { TEST_KDF, TEST_PHRASE } from "../support/keystoreFixture.ts";

const REQUEST_KEY = commandModel.requestKeyOf('{"test":1}');
const KEY0 = "60ec71ef5df37ee922b272edf60590158938d6a6e0d385d506de913ad3f2be3d";
const SECRET0 = "b584e9bdb0ed7ce973bed7af78ff13252a5e445d018a0b09eb29d78cd8af5b2a";

/** A clock the test moves by hand, with the timers it holds. */
function fakeClock() {
  let now = 1_000_000;
  const timers = new Map<number, { at: number; f: () => void }>();
  let next = 1;
  const clock: VaultClock & { advance(ms: number): void } = {
    now: () => now,
    setTimeout: (f, ms) => {
      timers.set(next, { at: now + ms, f });
      return next++;
    },
    clearTimeout: (h) => {
      timers.delete(h as number);
    },
    advance(ms) {
      now += ms;
      for (const [id, t] of [...timers]) {
        if (t.at <= now) {
          timers.delete(id);
          t.f();
        }
      }
    },
  };
  return clock;
}

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof VaultError) return e.code;
    throw e;
  }
  return "no error";
}

function restored(vault: VaultCore, password = "pw"): KeystoreFile {
  return vault.handle({ op: "create", password, phrase: TEST_PHRASE, idleLockMinutes: 10 })
    .keystore;
}

describe("[renderer] wallet vault", () => {
  it("restores a phrase, signs with key 0, lock clears it, unlock brings it back", () => {
    const vault = new VaultCore({ kdf: TEST_KDF, clock: fakeClock() });
    const file = restored(vault);
    expect(file.public.keys).toEqual([
      { id: "p-0", publicKey: KEY0, label: "Key 0", source: "phrase", index: 0 },
    ]);
    expect(JSON.stringify(file)).not.toContain(SECRET0);
    const sig = vault.handle({ op: "sign", keyId: "p-0", requestKey: REQUEST_KEY }).signature;
    expect(
      commandModel.crypto.verify(commandModel.requestKeyBytesOf('{"test":1}'), sig, KEY0),
    ).toBe(true);
    vault.handle({ op: "lock" });
    expect(vault.isUnlocked).toBe(false);
    expect(codeOf(() => vault.handle({ op: "sign", keyId: "p-0", requestKey: REQUEST_KEY }))).toBe(
      "WALLET_LOCKED",
    );
    vault.handle({ op: "unlock", keystore: file, password: "pw" });
    expect(vault.handle({ op: "sign", keyId: "p-0", requestKey: REQUEST_KEY }).signature).toBe(sig);
    expect(codeOf(() => vault.handle({ op: "sign", keyId: "p-9", requestKey: REQUEST_KEY }))).toBe(
      "WALLET_UNKNOWN_KEY",
    );
  });

  it("refuses a wrong password, and throttles after three: 1 s, then 2 s", () => {
    const clock = fakeClock();
    const vault = new VaultCore({ kdf: TEST_KDF, clock });
    const file = restored(vault);
    vault.lock();
    const attempt = (password: string) =>
      codeOf(() => vault.handle({ op: "unlock", keystore: file, password }));
    expect(attempt("no1")).toBe("WALLET_WRONG_PASSWORD");
    expect(attempt("no2")).toBe("WALLET_WRONG_PASSWORD");
    expect(attempt("no3")).toBe("WALLET_WRONG_PASSWORD");
    // Even the right password waits now.
    expect(attempt("pw")).toBe("WALLET_THROTTLED");
    clock.advance(1000);
    expect(attempt("no4")).toBe("WALLET_WRONG_PASSWORD");
    clock.advance(1000);
    expect(attempt("pw")).toBe("WALLET_THROTTLED");
    clock.advance(1000);
    expect(attempt("pw")).toBe("no error");
    expect(vault.isUnlocked).toBe(true);
  });

  it("locks itself after the idle time; activity and signing push it back", () => {
    const clock = fakeClock();
    let idleLocks = 0;
    const vault = new VaultCore({ kdf: TEST_KDF, clock, onIdleLock: () => idleLocks++ });
    restored(vault);
    vault.handle({ op: "setIdle", minutes: 2 });
    clock.advance(90_000);
    vault.handle({ op: "activity" });
    clock.advance(90_000);
    vault.handle({ op: "sign", keyId: "p-0", requestKey: REQUEST_KEY });
    clock.advance(90_000);
    expect(vault.isUnlocked).toBe(true);
    clock.advance(31_000);
    expect(vault.isUnlocked).toBe(false);
    expect(idleLocks).toBe(1);
  });

  it("adds phrase keys, imports and removes a key, sealing each change; a tampered key list is refused", () => {
    const vault = new VaultCore({ kdf: TEST_KDF, clock: fakeClock() });
    let file = restored(vault);
    const found = vault.handle({ op: "phraseKeys", from: 0, count: 3 }).keys;
    expect(found.map((k) => k.index)).toEqual([0, 1, 2]);
    expect(JSON.stringify(found)).not.toContain(SECRET0);
    file = vault.handle({ op: "addPhraseKeys", keystore: file, indices: [0, 2] }).keystore;
    expect(file.public.keys.map((k) => k.id)).toEqual(["p-0", "p-2"]);
    const sender = DEV_ACCOUNT_KEYS[0];
    if (sender === undefined) throw new Error("no dev keys");
    file = vault.handle({
      op: "importKey",
      keystore: file,
      keyFile: "",
      publicKey: sender.publicKey,
      secretKey: sender.secretKey,
      label: "sender00",
      source: "test-account",
    }).keystore;
    const imported = file.public.keys[2];
    expect(imported).toMatchObject({
      publicKey: sender.publicKey,
      label: "sender00",
      source: "test-account",
    });
    expect(JSON.stringify(file)).not.toContain(sender.secretKey);
    expect(
      codeOf(() =>
        vault.handle({
          op: "importKey",
          keystore: file,
          keyFile: "",
          publicKey: sender.publicKey,
          secretKey: sender.secretKey,
          label: "",
          source: "imported",
        }),
      ),
    ).toBe("WALLET_DUPLICATE_KEY");
    // The sealed file unlocks with every key signing.
    vault.lock();
    vault.handle({ op: "unlock", keystore: file, password: "pw" });
    for (const k of file.public.keys)
      vault.handle({ op: "sign", keyId: k.id, requestKey: REQUEST_KEY });
    // Removing the imported key removes its secret.
    const id = imported?.id ?? "";
    file = vault.handle({ op: "removeKey", keystore: file, keyId: id }).keystore;
    expect(codeOf(() => vault.handle({ op: "sign", keyId: id, requestKey: REQUEST_KEY }))).toBe(
      "WALLET_UNKNOWN_KEY",
    );
    vault.lock();
    // A key list whose public key was swapped does not unlock.
    const swapped = {
      ...file,
      public: {
        ...file.public,
        keys: file.public.keys.map((k) => ({ ...k, publicKey: sender.publicKey })),
      },
    };
    expect(codeOf(() => vault.handle({ op: "unlock", keystore: swapped, password: "pw" }))).toBe(
      "WALLET_KEY_MISMATCH",
    );
    expect(vault.isUnlocked).toBe(false);
  });

  it("changes the password and reveals the phrase only with it", () => {
    const vault = new VaultCore({ kdf: TEST_KDF, clock: fakeClock() });
    const file = restored(vault, "old");
    expect(
      codeOf(() =>
        vault.handle({
          op: "changePassword",
          keystore: file,
          oldPassword: "bad",
          newPassword: "new",
        }),
      ),
    ).toBe("WALLET_WRONG_PASSWORD");
    const changed = vault.handle({
      op: "changePassword",
      keystore: file,
      oldPassword: "old",
      newPassword: "new",
    }).keystore;
    expect(changed.kdf.salt).not.toBe(file.kdf.salt);
    expect(
      codeOf(() => vault.handle({ op: "revealPhrase", keystore: changed, password: "old" })),
    ).toBe("WALLET_WRONG_PASSWORD");
    expect(
      vault.handle({ op: "revealPhrase", keystore: changed, password: "new" }).words.join(" "),
    ).toBe(TEST_PHRASE);
    vault.lock();
    expect(codeOf(() => vault.handle({ op: "unlock", keystore: changed, password: "old" }))).toBe(
      "WALLET_WRONG_PASSWORD",
    );
    vault.handle({ op: "unlock", keystore: changed, password: "new" });
  });

  it("creates from a generated phrase after the words are confirmed", () => {
    const vault = new VaultCore({ kdf: TEST_KDF, clock: fakeClock() });
    const words = vault.handle({ op: "generate", words: 24 }).words;
    expect(words).toHaveLength(24);
    expect(
      vault.handle({
        op: "confirmWords",
        answers: [
          { position: 3, word: words[3] ?? "" },
          { position: 20, word: ` ${(words[20] ?? "").toUpperCase()}` },
        ],
      }).correct,
    ).toBe(true);
    expect(
      vault.handle({
        op: "confirmWords",
        answers: [{ position: 3, word: words[4] === words[3] ? "zoo" : (words[4] ?? "") }],
      }).correct,
    ).toBe(false);
    const file = vault.handle({
      op: "create",
      password: "pw",
      phrase: null,
      idleLockMinutes: 5,
    }).keystore;
    expect(file.public.settings.idleLockMinutes).toBe(5);
    expect(vault.handle({ op: "revealPhrase", keystore: file, password: "pw" }).words).toEqual(
      words,
    );
    expect(
      codeOf(() =>
        vault.handle({ op: "create", password: "pw", phrase: "abandon zzz", idleLockMinutes: 5 }),
      ),
    ).toBe("WALLET_BAD_PHRASE");
  });

  it("parses requests: unknown operations and bad fields are refused", () => {
    expect(parseVaultRequest({ op: "steal" })).toEqual({
      ok: false,
      error: "request.op: expected a vault operation",
    });
    expect(parseVaultRequest({ op: "sign", keyId: "p-0", requestKey: "short" }).ok).toBe(false);
    expect(parseVaultRequest({ op: "generate", words: 13 }).ok).toBe(false);
    expect(parseVaultRequest({ op: "unlock", keystore: {}, password: "x" }).ok).toBe(false);
    expect(parseVaultRequest({ op: "sign", keyId: "p-0", requestKey: REQUEST_KEY }).ok).toBe(true);
  });

  it("the client resolves answers and rejects failures with their code (worker logic in-thread)", async () => {
    const vault = new VaultCore({ kdf: TEST_KDF, clock: fakeClock() });
    const transport = {
      onmessage: null as ((e: { data: unknown }) => void) | null,
      postMessage(m: unknown) {
        const { id } = m as { id: number };
        const parsed = parseVaultRequest(m);
        let answer: unknown;
        try {
          if (!parsed.ok) throw new VaultError("WALLET_BAD_REQUEST", parsed.error);
          answer = { id, ok: true, result: vault.handle(parsed.value) };
        } catch (e) {
          const v = e as VaultError;
          answer = { id, ok: false, error: { code: v.code, message: v.message } };
        }
        queueMicrotask(() => transport.onmessage?.({ data: structuredClone(answer) }));
      },
      terminate() {},
    };
    let locked = 0;
    const client = createVaultClient(transport, () => locked++);
    const { keystore } = await client.request({
      op: "create",
      password: "pw",
      phrase: TEST_PHRASE,
      idleLockMinutes: 10,
    });
    expect(keystore.public.keys[0]?.publicKey).toBe(KEY0);
    const { signature } = await client.request({
      op: "sign",
      keyId: "p-0",
      requestKey: REQUEST_KEY,
    });
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    await client.request({ op: "lock" });
    const failure = await client
      .request({ op: "sign", keyId: "p-0", requestKey: REQUEST_KEY })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(VaultRequestError);
    expect((failure as VaultRequestError).code).toBe("WALLET_LOCKED");
    transport.onmessage?.({ data: { event: "locked", reason: "idle" } });
    expect(locked).toBe(1);
  });
});
