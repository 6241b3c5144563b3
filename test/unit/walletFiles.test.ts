/**
 * The wallet's stored files, each written once (src-node/walletFiles/; issue 37): the keystore
 * and the pending file parsers read what the renderer writes into exactly the same values,
 * refuse forged files naming the field (an unknown member anywhere, a ciphertext over its limit,
 * every KDF parameter out of its set, lists over their limits), count text limits in
 * characters as JSON Schema does, and give the node's route a field it can point at
 * (api/parsedBody.ts).
 */
import { describe, expect, it } from "vitest";
import { pendingFileOf } from "../../renderer/src/features/wallet/crosschain/pendingFile.ts";
import {
  advance,
  newPending,
} from "../../renderer/src/features/wallet/crosschain/pendingTransfer.ts";
import { newHistoryEntry } from "../../renderer/src/features/wallet/history/historyModel.ts";
import { pointerOfPath, validationErrorOf } from "../../src-node/api/parsedBody.ts";
import { parseKeystoreFile } from "../../src-node/walletFiles/keystoreFile.ts";
import { parsePendingFile } from "../../src-node/walletFiles/pendingFile.ts";
import { testKeystore } from "../support/keystoreFixture.ts";

// biome-ignore lint/suspicious/noExplicitAny: the tests edit the files' JSON freely
type Json = Record<string, any>;

/** The parser's reason for `file` changed by `patch`, or "ok". */
function reasonOf(parse: (raw: unknown) => { ok: boolean; error?: string }, file: Json) {
  return (patch: (x: Json) => void): string => {
    const c = structuredClone(file);
    patch(c);
    const r = parse(c) as { ok: true } | { ok: false; error: string };
    return r.ok ? "ok" : r.error;
  };
}

const keystore = JSON.parse(JSON.stringify(testKeystore())) as Json;
const keystoreReason = reasonOf(parseKeystoreFile, keystore);

describe("[walletFiles] the keystore file", () => {
  it("reads the renderer's own file into exactly the same value", () => {
    expect(parseKeystoreFile(keystore)).toEqual({ ok: true, value: keystore });
  });

  it("refuses an unknown member anywhere, naming it", () => {
    expect(keystoreReason((c) => (c.secret = "plain"))).toBe("keystore.secret: unknown field");
    expect(keystoreReason((c) => (c.kdf.iterations = 1))).toBe(
      "keystore.kdf.iterations: unknown field",
    );
    expect(keystoreReason((c) => (c.public.keys[0].secretKey = "00"))).toBe(
      "keystore.public.keys[0].secretKey: unknown field",
    );
    expect(keystoreReason((c) => (c.public.settings.theme = "dark"))).toBe(
      "keystore.public.settings.theme: unknown field",
    );
    expect(keystoreReason((c) => (c.cipher.tag = "00"))).toBe("keystore.cipher.tag: unknown field");
    // A forged name is quoted and cut, and never holds ": " (the node splits the field there).
    const odd = keystoreReason((c) => (c[`a: b/${"x".repeat(100)}`] = 1));
    expect(odd).toMatch(/^keystore\["a\\u003a b\/x{27}…"\]: unknown field$/);
    expect(keystoreReason((c) => delete c.cipher)).toBe("keystore.cipher: missing (required)");
  });

  it("refuses a ciphertext over 600,000 characters or not base64", () => {
    expect(keystoreReason((c) => (c.ciphertext = "A".repeat(600_000)))).toBe("ok");
    expect(keystoreReason((c) => (c.ciphertext = "A".repeat(600_001)))).toBe(
      "keystore.ciphertext: expected at most 600000 characters",
    );
    expect(keystoreReason((c) => (c.ciphertext = "not base64!"))).toBe(
      "keystore.ciphertext: expected base64 text",
    );
  });

  it("refuses every KDF parameter out of its set", () => {
    const bad: [string, (c: Json) => void][] = [
      ["keystore.kdf.name", (c) => (c.kdf.name = "pbkdf2")],
      ["keystore.kdf.N", (c) => (c.kdf.N = 2 ** 13)],
      ["keystore.kdf.N", (c) => (c.kdf.N = 2 ** 21)],
      ["keystore.kdf.N", (c) => (c.kdf.N = 3 * 2 ** 14)],
      ["keystore.kdf.N", (c) => (c.kdf.N = "65536")],
      ["keystore.kdf.r", (c) => (c.kdf.r = 16)],
      ["keystore.kdf.p", (c) => (c.kdf.p = 5)],
      ["keystore.kdf.dkLen", (c) => (c.kdf.dkLen = 64)],
      ["keystore.kdf.salt", (c) => (c.kdf.salt = "AB".repeat(16))],
      ["keystore.cipher.name", (c) => (c.cipher.name = "aes-256-gcm")],
    ];
    for (const [field, patch] of bad) expect(keystoreReason(patch)).toMatch(`${field}: expected`);
    for (const N of [2 ** 14, 2 ** 20]) expect(keystoreReason((c) => (c.kdf.N = N))).toBe("ok");
  });

  it("counts a label's characters as code points, and bounds the lists", () => {
    const emoji = "\u{1F511}";
    expect(keystoreReason((c) => (c.public.keys[0].label = emoji.repeat(100)))).toBe("ok");
    expect(keystoreReason((c) => (c.public.keys[0].label = emoji.repeat(101)))).toBe(
      "keystore.public.keys[0].label: expected at most 100 characters",
    );
    expect(keystoreReason((c) => (c.public.settings.watchOnly = ["ab"]))).toBe(
      "keystore.public.settings.watchOnly[0]: expected 3 to 256 characters",
    );
    expect(keystoreReason((c) => (c.public.settings.watchOnly = Array(1001).fill("k:abc")))).toBe(
      "keystore.public.settings.watchOnly: expected at most 1000 items",
    );
    expect(
      keystoreReason((c) =>
        c.public.keys.push({ ...c.public.keys[0], publicKey: "00".repeat(32) }),
      ),
    ).toBe("keystore.public.keys: expected distinct ids");
  });
});

const transfer = newPending({
  requestKey: "A".repeat(43),
  sourceChain: 0,
  targetChain: 3,
  sender: "k:a",
  receiver: "k:b",
  amount: "1.5",
  createdAt: 1_700_000_000_000,
});
const finishing = advance(advance(transfer, { kind: "step1-succeeded" }), {
  kind: "proof",
  continuation: { cmd: '{"a":1}', hash: "B".repeat(43), sigs: [{ sig: "ab".repeat(64) }] },
});
const records = {
  history: [
    newHistoryEntry({ requestKey: "H".repeat(43), kind: "transfer", chain: 0, createdAt: 1 }),
  ],
  multisig: [
    {
      account: "w:abc:keys-all",
      keys: ["ab".repeat(32), "cd".repeat(32)],
      pred: "keys-all" as const,
      chains: [0],
      createdAt: 1,
    },
  ],
};
const pending = JSON.parse(
  JSON.stringify(pendingFileOf([transfer, { ...finishing, requestKey: "C".repeat(43) }], records)),
) as Json;
const pendingReason = reasonOf(parsePendingFile, pending);

describe("[walletFiles] the pending file", () => {
  it("reads the renderer's own file into exactly the same value; an older file stays without history", () => {
    expect(parsePendingFile(pending)).toEqual({ ok: true, value: pending });
    const older = JSON.parse(JSON.stringify(pendingFileOf([transfer]))) as Json;
    expect(Object.keys(older)).toEqual(["format", "version", "transfers"]);
    expect(parsePendingFile(older)).toEqual({ ok: true, value: older });
  });

  it("refuses forged transfers, history entries and accounts, naming the field", () => {
    const bad: [string, (c: Json) => void][] = [
      ["pending.extra: unknown field", (c) => (c.extra = 1)],
      [
        "pending.transfers[1].continuation.secretKey: unknown field",
        (c) => {
          c.transfers[1].continuation.secretKey = "00";
        },
      ],
      [
        "pending.transfers[1].continuation.sigs: expected at most 1 item",
        (c) => {
          c.transfers[1].continuation.sigs.push({ sig: "cd".repeat(64) });
        },
      ],
      [
        "pending.transfers[1].continuation.cmd: expected at most 100000 characters",
        (c) => {
          c.transfers[1].continuation.cmd = "x".repeat(100_001);
        },
      ],
      [
        "pending.transfers[0].reason: expected at most 2000 characters",
        (c) => {
          c.transfers[0].reason = "r".repeat(2001);
        },
      ],
      [
        "pending.transfers[0].amount: expected at most 60 characters",
        (c) => {
          c.transfers[0].amount = "1".repeat(61);
        },
      ],
      [
        "pending.transfers[0].createdAt: expected an integer >= 0",
        (c) => {
          c.transfers[0].createdAt = 1.5;
        },
      ],
      ["pending.transfers[0].retryPhase: expected", (c) => (c.transfers[0].retryPhase = "lost")],
      [
        "pending.transfers: expected at most 200 items",
        (c) => {
          c.transfers = Array(201).fill(c.transfers[0]);
        },
      ],
      ["pending.history: expected an array", (c) => (c.history = null)],
      ["pending.history[0].amount: expected a decimal", (c) => (c.history[0].amount = "1e5")],
      [
        "pending.history[0].message: expected at most 2000",
        (c) => {
          c.history[0].message = "m".repeat(2001);
        },
      ],
      [
        "pending.multisig[0].keys: expected 1 to 10 items",
        (c) => {
          c.multisig[0].keys = Array(11).fill("ab".repeat(32));
        },
      ],
      [
        "pending.multisig[0].account: expected 3 to 256 characters",
        (c) => {
          c.multisig[0].account = "w:";
        },
      ],
      [
        "pending.multisig: expected at most 100 items",
        (c) => {
          c.multisig = Array(101).fill(c.multisig[0]);
        },
      ],
    ];
    for (const [reason, patch] of bad) expect(pendingReason(patch)).toContain(reason);
  });
});

describe("[api] a parser's refusal as the field of a 400 (parsedBody.ts)", () => {
  it("points at the field below the parser's root name", () => {
    expect(pointerOfPath("keystore")).toBe("");
    expect(pointerOfPath("keystore.public.keys[0].publicKey")).toBe("/public/keys/0/publicKey");
    expect(pointerOfPath('keystore["a\\u003a b/c~"]')).toBe("/a: b~1c~0");
    expect(pointerOfPath("keystore..x")).toBeUndefined();
    expect(validationErrorOf("keystore.kdf.N: expected a power of two")).toMatchObject({
      instancePath: "/kdf/N",
      message: "expected a power of two",
    });
    expect(validationErrorOf("no path here")).toMatchObject({
      instancePath: "",
      message: "no path here",
    });
  });
});
