/**
 * The proof-of-work comparison (spec "Work bytes": the hash of a valid block
 * must not exceed the target; hash and target are compared as unsigned
 * 256-bit little-endian integers): a hash equal to the target is valid, one
 * above it is not, and the last byte is the most significant. The node's
 * check (chain/pow.ts) and the miners' (mining/nonceSearch.ts) must agree.
 */
import { describe, expect, it } from "vitest";
import { meetsTarget } from "../../src-node/chain/pow.ts";
import { readU256, u256ToBytes } from "../../src-node/encoding/littleEndian.ts";
import { meetsTarget as minerMeetsTarget } from "../../src-node/mining/nonceSearch.ts";

/** Both checks, which must agree. */
function valid(hash: Uint8Array, target: bigint): boolean {
  const node = meetsTarget(hash, target);
  expect(minerMeetsTarget(hash, u256ToBytes(target, "target"))).toBe(node);
  return node;
}

describe("[chain] proof-of-work hash against the target", () => {
  const hash = new Uint8Array(32).map((_, i) => (i * 37 + 11) & 0xff);
  const value = readU256(hash, 0, "hash");

  it("accepts a hash equal to the target and refuses one above it", () => {
    expect(valid(hash, value)).toBe(true);
    expect(valid(hash, value + 1n)).toBe(true);
    expect(valid(hash, value - 1n)).toBe(false);
  });

  it("reads both as little-endian numbers: the last byte is the most significant", () => {
    const lowByteSet = new Uint8Array(32);
    lowByteSet[0] = 0xff;
    const highByteSet = new Uint8Array(32);
    highByteSet[31] = 0x01;
    expect(valid(lowByteSet, 0xffn)).toBe(true);
    expect(valid(highByteSet, 0xffn)).toBe(false);
    expect(valid(highByteSet, 1n << 248n)).toBe(true);
    expect(valid(new Uint8Array(32).fill(0xff), (1n << 256n) - 1n)).toBe(true);
  });
});
