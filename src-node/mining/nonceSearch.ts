/**
 * The checked entry to the proof-of-work search: validates the work header,
 * target and nonce range, converts the nonce to two u32 halves once, and runs
 * the midstate search in chunks. It never changes the creation time; the
 * worker refreshes it (minerCore.ts).
 * @module
 */
import {
  createPowMidstate,
  NONCE_OFFSET,
  powHashWords,
  readWords256,
  searchMidstate,
  setPowMidstate,
  WORK_HEADER_BYTES,
  wordsAtMost,
} from "./blake2sMidstate.ts";
import { MiningError, MiningErrorCode } from "./errors.ts";

const U64_MAX = (1n << 64n) - 1n;
const TARGET_BYTES = 32;
/** Keeps every kernel call's counters inside int32. */
const CHUNK = 1 << 30;

export type NonceSearchResult = {
  /** The first nonce (in search order) whose proof-of-work hash is <= target, or null. */
  nonce: bigint | null;
  /** How many nonces were hashed, the found one included. */
  tried: number;
};

/** Throws MINING_BAD_WORK unless `bytes` has exactly `expected` bytes. */
export function assertLength(bytes: Uint8Array, expected: number, field: string): void {
  if (!(bytes instanceof Uint8Array) || bytes.length !== expected) {
    const actual = bytes instanceof Uint8Array ? bytes.length : -1;
    throw new MiningError(
      { code: MiningErrorCode.BadWork, field, expected, actual },
      `${field}: expected ${expected} bytes, got ${actual < 0 ? "no byte array" : actual}`,
    );
  }
}

/** Throws MINING_BAD_ARGUMENT unless `nonce` is a u64. */
export function assertNonce(nonce: bigint, field: string): void {
  if (typeof nonce !== "bigint" || nonce < 0n || nonce > U64_MAX) {
    throw new MiningError(
      { code: MiningErrorCode.BadArgument, field, value: String(nonce) },
      `${field}: ${String(nonce)} is not a u64 nonce`,
    );
  }
}

/**
 * Hashes nonces `startNonce`, `startNonce + 1`, … (`count` of them, wrapping
 * at 2⁶⁴) in `work286` and returns the first whose Blake2s-256 digest, read
 * as a little-endian number, is <= `target32` (little-endian).
 * The nonce bytes of `work286` are ignored; `work286` is not modified.
 *
 * @throws MiningError MINING_BAD_WORK (lengths), MINING_BAD_ARGUMENT (nonce, count)
 * @example searchNonce(header, target, 0n, 1_000_000) // { nonce: 12345n, tried: 12346 }
 */
export function searchNonce(
  work286: Uint8Array,
  target32: Uint8Array,
  startNonce: bigint,
  count: number,
): NonceSearchResult {
  assertLength(work286, WORK_HEADER_BYTES, "work286");
  assertLength(target32, TARGET_BYTES, "target32");
  assertNonce(startNonce, "startNonce");
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new MiningError(
      { code: MiningErrorCode.BadArgument, field: "count", value: String(count) },
      `count: ${String(count)} is not a non-negative safe integer`,
    );
  }
  const state = createPowMidstate();
  setPowMidstate(state, work286);
  const target = new Uint32Array(8);
  readWords256(target32, target);
  let lo = Number(startNonce & 0xffffffffn);
  let hi = Number(startNonce >> 32n);
  let tried = 0;
  while (tried < count) {
    const n = Math.min(CHUNK, count - tried);
    const i = searchMidstate(state, target, lo, hi, n);
    if (i >= 0) {
      return { nonce: (startNonce + BigInt(tried + i)) & U64_MAX, tried: tried + i + 1 };
    }
    tried += n;
    const next = lo + n;
    lo = next >>> 0;
    hi = (hi + Math.floor(next / 0x100000000)) >>> 0;
  }
  return { nonce: null, tried };
}

/**
 * The Blake2s-256 proof-of-work digest of a 286-byte header (nonce included),
 * through the midstate path. Mostly for checks and tests; the search never
 * materialises digests.
 */
export function powHash(work286: Uint8Array): Uint8Array {
  assertLength(work286, WORK_HEADER_BYTES, "work286");
  const state = createPowMidstate();
  setPowMidstate(state, work286);
  const view = new DataView(work286.buffer, work286.byteOffset, work286.byteLength);
  const words = new Uint32Array(8);
  powHashWords(
    state,
    view.getUint32(NONCE_OFFSET, true),
    view.getUint32(NONCE_OFFSET + 4, true),
    words,
  );
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, words[i] as number, true);
  return out;
}

/** True iff `hash32` read as a LE 256-bit number is <= `target32` (LE). */
export function meetsTarget(hash32: Uint8Array, target32: Uint8Array): boolean {
  assertLength(hash32, 32, "hash32");
  assertLength(target32, TARGET_BYTES, "target32");
  const h = new Uint32Array(8);
  const t = new Uint32Array(8);
  readWords256(hash32, h);
  readWords256(target32, t);
  return wordsAtMost(h, t);
}
