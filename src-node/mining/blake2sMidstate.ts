/**
 * Blake2s-256 (RFC 7693, unkeyed, 32-byte digest) specialised for the
 * 286-byte proof-of-work header: the first 256 bytes are four full blocks that
 * do not depend on the nonce, so their chaining value (the midstate) is
 * computed once per work item and creation time; each nonce then costs one
 * compression of the final block (30 data bytes, zero padded, counter 286,
 * final flag).
 *
 * Why hand-written: no library exposes a Blake2s midstate, and a whole hash
 * per nonce (node:crypto, about 0.5 M/s) is ten times slower than one final
 * block here. The compression is straight-line code over local int32
 * variables, which V8 keeps in registers; writing ten unrolled rounds by hand
 * invites index typos, so the rounds are generated once, at load time, from
 * the RFC's SIGMA table and G function (RFC 7693 §3.1, §3.2) and compiled with
 * `new Function`. The generated text depends only on constants below.
 * Correctness is checked against @noble/hashes and node:crypto by property
 * tests (test/unit/miningMidstate.test.ts).
 *
 * Layout of the final block (header bytes 256..285, then two zero bytes):
 * message words m0..m4 are fixed header bytes; m5 holds header bytes 276..277
 * in its low half and nonce bytes 0..1 in its high half; m6 holds nonce bytes
 * 2..5; m7 holds nonce bytes 6..7 and two zero bytes; m8..m15 are zero, so the
 * generated code leaves those additions out.
 * @module
 */

/** Length of the work header that is hashed. */
export const WORK_HEADER_BYTES = 286;
/** Offset of the u64 LE nonce in the work header. */
export const NONCE_OFFSET = 278;
/** Offset of the i64 LE creation time (µs since the epoch) in the work header. */
export const CREATION_TIME_OFFSET = 8;

/** RFC 7693 §2.6: the SHA-256 initial values. */
const IV = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
] as const;

/** RFC 7693 §2.7: message word schedule, one row per round (Blake2s has 10 rounds). */
const SIGMA: readonly (readonly number[])[] = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
  [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
  [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
  [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
  [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

/** Parameter block word 0 for an unkeyed 32-byte digest: depth 1, fanout 1, key 0, nn 32. */
const PARAM0 = 0x01010020;

/**
 * Source text of the ten rounds over locals v0..v15. `word(i)` is the
 * expression for message word i, or null when that word is zero (its addition
 * is then left out).
 */
function roundsSource(word: (i: number) => string | null): string {
  const out: string[] = [];
  const add = (i: number): string => {
    const w = word(i);
    return w === null ? "" : ` + ${w}`;
  };
  const rot = (x: string, n: number): string => `${x} = (${x} >>> ${n}) | (${x} << ${32 - n});`;
  // RFC 7693 §3.1, the mixing function G with rotations 16, 12, 8, 7.
  const g = (a: number, b: number, c: number, d: number, x: number, y: number): void => {
    const [va, vb, vc, vd] = [`v${a}`, `v${b}`, `v${c}`, `v${d}`];
    out.push(
      `${va} = (${va} + ${vb}${add(x)}) | 0; ${vd} ^= ${va}; ${rot(vd, 16)}`,
      `${vc} = (${vc} + ${vd}) | 0; ${vb} ^= ${vc}; ${rot(vb, 12)}`,
      `${va} = (${va} + ${vb}${add(y)}) | 0; ${vd} ^= ${va}; ${rot(vd, 8)}`,
      `${vc} = (${vc} + ${vd}) | 0; ${vb} ^= ${vc}; ${rot(vb, 7)}`,
    );
  };
  // RFC 7693 §3.2: four column steps, then four diagonal steps, per round.
  for (const s of SIGMA) {
    const m = (k: number): number => s[k] as number;
    g(0, 4, 8, 12, m(0), m(1));
    g(1, 5, 9, 13, m(2), m(3));
    g(2, 6, 10, 14, m(4), m(5));
    g(3, 7, 11, 15, m(6), m(7));
    g(0, 5, 10, 15, m(8), m(9));
    g(1, 6, 11, 12, m(10), m(11));
    g(2, 7, 8, 13, m(12), m(13));
    g(3, 4, 9, 14, m(14), m(15));
  }
  return out.join("\n");
}

/** Declares v0..v15 from chaining words `h(i)`, the IV, counter `t` and the final flag. */
function initSource(h: (i: number) => string, t: string, last: boolean): string {
  const v = Array.from({ length: 8 }, (_, i) => `v${i} = ${h(i)}`);
  const lo = [`v8 = ${IV[0] | 0}`, `v9 = ${IV[1] | 0}`, `v10 = ${IV[2] | 0}`, `v11 = ${IV[3] | 0}`];
  lo.push(`v12 = ${IV[4] | 0} ^ ${t}`, `v13 = ${IV[5] | 0}`);
  lo.push(`v14 = ${last ? ~IV[6] : IV[6] | 0}`, `v15 = ${IV[7] | 0}`);
  return `let ${[...v, ...lo].join(", ")};`;
}

/** Final-block message words from the state words and the two nonce halves. */
const FINAL_WORDS = `const m0 = s[8], m1 = s[9], m2 = s[10], m3 = s[11], m4 = s[12];
const m5 = s[13] | (lo << 16), m6 = (lo >>> 16) | (hi << 16), m7 = hi >>> 16;`;
const finalWord = (i: number): string | null => (i < 8 ? `m${i}` : null);

// Counter values fit in one word (the header is 286 bytes), so t1 stays 0.
type CompressFn = (h: Int32Array, w: Int32Array, t: number) => void;
type FinalHashFn = (s: Int32Array, lo: number, hi: number, out: Uint32Array) => void;
type KernelFn = (s: Int32Array, t7: number, lo: number, hi: number, count: number) => number;

/** A full, non-final block: h ← compress(h, w, t). */
const compressBlock = new Function(
  "h",
  "w",
  "t",
  `${initSource((i) => `h[${i}]`, "t", false)}
${roundsSource((i) => `w[${i}]`)}
${Array.from({ length: 8 }, (_, i) => `h[${i}] ^= v${i} ^ v${i + 8};`).join("\n")}`,
) as CompressFn;

/** The final block for one nonce: out ← the 8 digest words (little-endian words). */
const finalHash = new Function(
  "s",
  "lo",
  "hi",
  "out",
  `${FINAL_WORDS}
${initSource((i) => `s[${i}]`, `${WORK_HEADER_BYTES}`, true)}
${roundsSource(finalWord)}
${Array.from({ length: 8 }, (_, i) => `out[${i}] = s[${i}] ^ v${i} ^ v${i + 8};`).join("\n")}`,
) as FinalHashFn;

/**
 * The hot loop: tries `count` consecutive nonces from (lo, hi) and returns the
 * index of the first whose most significant digest word is <= t7 (a candidate
 * the caller checks in full), or -1. Only v7 and v15 are used after the
 * rounds, so V8 drops the work that feeds nothing else.
 */
const kernel = new Function(
  "s",
  "t7",
  "lo",
  "hi",
  "count",
  `const h0 = s[0], h1 = s[1], h2 = s[2], h3 = s[3], h4 = s[4], h5 = s[5], h6 = s[6], h7 = s[7];
const m0 = s[8], m1 = s[9], m2 = s[10], m3 = s[11], m4 = s[12], m5lo = s[13];
for (let i = 0; i < count; i++) {
  const m5 = m5lo | (lo << 16), m6 = (lo >>> 16) | (hi << 16), m7 = hi >>> 16;
  ${initSource((i) => `h${i}`, `${WORK_HEADER_BYTES}`, true)}
  ${roundsSource(finalWord)}
  if (((h7 ^ v7 ^ v15) >>> 0) <= t7) return i;
  lo = (lo + 1) | 0;
  if (lo === 0) hi = (hi + 1) | 0;
}
return -1;`,
) as KernelFn;

/**
 * The per-work state, 14 int32 words: [0..8) the chaining value after the
 * first 256 bytes, [8..13) message words m0..m4 of the final block, [13] the
 * fixed low half of m5.
 */
export type PowMidstate = Int32Array & { readonly __brand: "PowMidstate" };

/** Allocates a midstate buffer (reuse it: {@link setPowMidstate} overwrites it). */
export function createPowMidstate(): PowMidstate {
  return new Int32Array(14) as PowMidstate;
}

const blockWords = new Int32Array(16);

function le32(b: Uint8Array, o: number): number {
  return (
    (b[o] as number) |
    ((b[o + 1] as number) << 8) |
    ((b[o + 2] as number) << 16) |
    ((b[o + 3] as number) << 24)
  );
}

/**
 * Computes the midstate of a 286-byte work header into `state`. The nonce
 * bytes of `header` are ignored (each nonce is passed separately). The
 * caller guarantees the length (see nonceSearch.ts for the checked entry).
 */
export function setPowMidstate(state: PowMidstate, header: Uint8Array): void {
  state.set(IV);
  state[0] = IV[0] ^ PARAM0;
  for (let block = 0; block < 4; block++) {
    for (let i = 0; i < 16; i++) blockWords[i] = le32(header, block * 64 + i * 4);
    compressBlock(state, blockWords, (block + 1) * 64);
  }
  for (let i = 0; i < 5; i++) state[8 + i] = le32(header, 256 + i * 4);
  state[13] = (header[276] as number) | ((header[277] as number) << 8);
}

/** The proof-of-work digest for nonce (hi·2³² + lo) as 8 little-endian words, into `out`. */
export function powHashWords(state: PowMidstate, lo: number, hi: number, out: Uint32Array): void {
  finalHash(state, lo | 0, hi | 0, out);
}

/** True iff the 256-bit LE number in `hash` is <= the one in `target` (8 words each, word 7 most significant). */
export function wordsAtMost(hash: Uint32Array, target: Uint32Array): boolean {
  for (let i = 7; i >= 0; i--) {
    const h = hash[i] as number;
    const t = target[i] as number;
    if (h !== t) return h < t;
  }
  return true;
}

/** Reads a 32-byte LE number (a target or a digest) into 8 words, word 7 most significant. */
export function readWords256(target32: Uint8Array, out: Uint32Array): void {
  for (let i = 0; i < 8; i++) out[i] = le32(target32, i * 4) >>> 0;
}

const candidate = new Uint32Array(8);

/**
 * Searches `count` consecutive nonces starting at (hi·2³² + lo), wrapping at
 * 2⁶⁴. Returns the index (0-based, < count) of the first nonce whose digest is
 * <= target, or -1. `count` must be an integer in [0, 2³¹).
 */
export function searchMidstate(
  state: PowMidstate,
  target: Uint32Array,
  lo: number,
  hi: number,
  count: number,
): number {
  const t7 = target[7] as number;
  let done = 0;
  lo >>>= 0;
  hi >>>= 0;
  while (done < count) {
    const i = kernel(state, t7, lo | 0, hi | 0, count - done);
    if (i < 0) return -1;
    const next = lo + i;
    lo = next >>> 0;
    if (next > 0xffffffff) hi = (hi + 1) >>> 0;
    // A candidate's top word is <= t7; ties are settled on the full digest.
    finalHash(state, lo | 0, hi | 0, candidate);
    if (wordsAtMost(candidate, target)) return done + i;
    done += i + 1;
    lo = (lo + 1) >>> 0;
    if (lo === 0) hi = (hi + 1) >>> 0;
  }
  return -1;
}
