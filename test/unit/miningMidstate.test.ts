/**
 * The hand-written Blake2s midstate path must equal two independent Blake2s
 * implementations (@noble/hashes, node:crypto) for every 286-byte input, and
 * its target comparison must equal a BigInt comparison, ties included.
 */
import { createHash } from "node:crypto";
import { blake2s } from "@noble/hashes/blake2.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createPowMidstate,
  NONCE_OFFSET,
  powHashWords,
  readWords256,
  searchMidstate,
  setPowMidstate,
  WORK_HEADER_BYTES,
  wordsAtMost,
} from "../../src-node/mining/blake2sMidstate.ts";
import { meetsTarget, powHash } from "../../src-node/mining/nonceSearch.ts";
import { loadVectors } from "../support/vectors.ts";

const U64 = (1n << 64n) - 1n;
const header286 = fc.uint8Array({ minLength: WORK_HEADER_BYTES, maxLength: WORK_HEADER_BYTES });
const u64 = fc.bigInt({ min: 0n, max: U64 });

function nodeBlake2s(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("blake2s256").update(bytes).digest());
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

/** LE bytes → bigint. */
function le(bytes: Uint8Array): bigint {
  return BigInt(`0x${hex(Uint8Array.from(bytes).reverse()) || "0"}`);
}

/** bigint → 32 LE bytes. */
function le32(n: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
}

function withNonce(header: Uint8Array, nonce: bigint): Uint8Array {
  const h = header.slice();
  new DataView(h.buffer).setBigUint64(NONCE_OFFSET, nonce, true);
  return h;
}

describe("[mining] Blake2s-256 midstate of 286-byte headers", () => {
  it("equals @noble/hashes and node:crypto for random headers", () => {
    fc.assert(
      fc.property(header286, (h) => {
        const expected = hex(blake2s(h, { dkLen: 32 }));
        expect(hex(nodeBlake2s(h))).toBe(expected);
        expect(hex(powHash(h))).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("equals them for random nonces on one reused midstate", () => {
    const state = createPowMidstate();
    const words = new Uint32Array(8);
    fc.assert(
      fc.property(header286, fc.array(u64, { minLength: 1, maxLength: 8 }), (h, nonces) => {
        setPowMidstate(state, h);
        for (const nonce of nonces) {
          powHashWords(state, Number(nonce & 0xffffffffn), Number(nonce >> 32n), words);
          const got = new Uint8Array(words.buffer.slice(0));
          expect(hex(got)).toBe(hex(nodeBlake2s(withNonce(h, nonce))));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("ignores the nonce bytes of the header it was built from", () => {
    fc.assert(
      fc.property(header286, u64, (h, nonce) => {
        const a = createPowMidstate();
        const b = createPowMidstate();
        setPowMidstate(a, h);
        setPowMidstate(b, withNonce(h, nonce));
        expect([...a]).toEqual([...b]);
      }),
      { numRuns: 100 },
    );
  });

  it("compares 256-bit little-endian numbers like BigInt does", () => {
    const near = fc.tuple(
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      fc.integer({ min: -2, max: 2 }),
    );
    fc.assert(
      fc.property(near, ([bytes, delta]) => {
        const a = le(bytes);
        const b = a + BigInt(delta);
        if (b < 0n || b > (1n << 256n) - 1n) return;
        const aw = new Uint32Array(8);
        const bw = new Uint32Array(8);
        readWords256(le32(a), aw);
        readWords256(le32(b), bw);
        expect(wordsAtMost(aw, bw)).toBe(a <= b);
        expect(meetsTarget(le32(a), le32(b))).toBe(a <= b);
      }),
      { numRuns: 500 },
    );
  });

  it("decides a nonce exactly at, just below and just above its own hash", () => {
    const state = createPowMidstate();
    const target = new Uint32Array(8);
    fc.assert(
      fc.property(header286, u64, fc.constantFrom(-1n, 0n, 1n), (h, nonce, delta) => {
        const hash = le(nodeBlake2s(withNonce(h, nonce)));
        const t = hash + delta;
        if (t < 0n || t > (1n << 256n) - 1n) return;
        setPowMidstate(state, h);
        readWords256(le32(t), target);
        const found = searchMidstate(
          state,
          target,
          Number(nonce & 0xffffffffn),
          Number(nonce >> 32n),
          1,
        );
        expect(found).toBe(hash <= t ? 0 : -1);
      }),
      { numRuns: 300 },
    );
  });

  it("agrees with brute force over runs that cross the 2^32 and 2^64 boundaries", () => {
    const state = createPowMidstate();
    const target = new Uint32Array(8);
    const start = fc.oneof(
      fc.bigInt({ min: 0xffffff00n, max: 0xffffffffn }),
      fc.bigInt({ min: U64 - 0xffn, max: U64 }),
      u64,
    );
    // Targets with top byte 0x00..0x1f: one nonce in 8..256 is valid.
    const easyTarget = fc.tuple(
      fc.uint8Array({ minLength: 31, maxLength: 31 }),
      fc.integer({ min: 0, max: 0x1f }),
    );
    fc.assert(
      fc.property(header286, start, easyTarget, (h, from, [low, top]) => {
        const t = new Uint8Array(32);
        t.set(low);
        t[31] = top;
        const count = 400;
        let expected = -1;
        for (let i = 0; i < count; i++) {
          const nonce = (from + BigInt(i)) & U64;
          if (le(nodeBlake2s(withNonce(h, nonce))) <= le(t)) {
            expected = i;
            break;
          }
        }
        setPowMidstate(state, h);
        readWords256(t, target);
        const lo = Number(from & 0xffffffffn);
        const hi = Number(from >> 32n);
        expect(searchMidstate(state, target, lo, hi, count)).toBe(expected);
      }),
      { numRuns: 60 },
    );
  });
});

type MiningWorkCase = {
  name: string;
  workHex: string;
  powHashBase64: string;
  powValid: boolean;
  targetBase64?: string;
};

describe("[mining] mining-work.json vectors", () => {
  const file = loadVectors<MiningWorkCase>("mining-work.json");
  it("has cases", () => expect(file.cases.length).toBeGreaterThanOrEqual(3));
  for (const c of file.cases) {
    it(c.name, () => {
      const work = new Uint8Array(Buffer.from(c.workHex, "hex"));
      expect(work.length).toBe(322);
      const header = work.subarray(36, 322);
      const target = work.subarray(4, 36);
      if (c.targetBase64 !== undefined) {
        expect(hex(target)).toBe(hex(Buffer.from(c.targetBase64, "base64url")));
      }
      const hash = powHash(header);
      expect(Buffer.from(hash).toString("base64url")).toBe(c.powHashBase64);
      expect(meetsTarget(hash, target)).toBe(c.powValid);
      // The search kernel agrees on the same nonce.
      const state = createPowMidstate();
      setPowMidstate(state, header);
      const tw = new Uint32Array(8);
      readWords256(target, tw);
      const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
      const lo = view.getUint32(NONCE_OFFSET, true);
      const hi = view.getUint32(NONCE_OFFSET + 4, true);
      expect(searchMidstate(state, tw, lo, hi, 1)).toBe(c.powValid ? 0 : -1);
    });
  }
});
