/**
 * The JSON key order of Pact 4 (reference §3.6): the iteration order of the old
 * `unordered-containers` HashMap. h = 64-bit FNV-1 over the key's UTF-16LE bytes
 * from the seed 0xDC36D1615B7400A4 (multiply by 16777619, then xor the byte);
 * keys sort by h's 4-bit nibbles from the least significant upward; equal
 * hashes keep their given order.
 * @module
 */

const SEED = 0xdc36d1615b7400a4n;
const PRIME = 16777619n;
const MASK = 0xffffffffffffffffn;
const cache = new Map<string, bigint>();

/** The sort key of `key`: its FNV-1 hash with the nibble order reversed. */
export function legacySortKey(key: string): bigint {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let h = SEED;
  for (let i = 0; i < key.length; i++) {
    const u = key.charCodeAt(i);
    h = (h * PRIME) & MASK;
    h ^= BigInt(u & 0xff);
    h = (h * PRIME) & MASK;
    h ^= BigInt(u >> 8);
  }
  let rev = 0n;
  for (let n = 0; n < 16; n++) {
    rev = (rev << 4n) | (h & 0xfn);
    h >>= 4n;
  }
  if (cache.size < 100_000) cache.set(key, rev);
  return rev;
}

/** Returns `keys` in the legacy order (stable for equal hashes). */
export function legacyOrder(keys: readonly string[]): string[] {
  return keys
    .map((k, i) => ({ k, i, s: legacySortKey(k) }))
    .sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : a.i - b.i))
    .map((x) => x.k);
}
