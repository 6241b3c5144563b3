/**
 * SHA-512/256 Merkle trees: every leaf of random trees has a proof that runs
 * to the root; flipping any bit of the subject or of any step breaks it; the
 * proof object codec round-trips; the tree shape is the reference's.
 */

import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeMerkleProofObject,
  encodeMerkleProofObject,
  merkleLeaf,
  merkleNode,
  merkleProofSteps,
  merkleRoot,
  runMerkleProof,
  sha512t256,
} from "../../src-node/crypto/merkle.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";

const leavesArb = fc
  .array(fc.uint8Array({ maxLength: 40 }), { minLength: 1, maxLength: 40 })
  .map((xs) => xs.map((x, i) => merkleLeaf(i % 3 === 0 ? null : i, x)));

describe("[crypto] Merkle trees and proofs", () => {
  it("uses SHA-512/256 with 0x00 leaf and 0x01 node prefixes", () => {
    const a = Uint8Array.of(1, 2);
    expect(merkleLeaf(null, a)).toEqual(
      new Uint8Array(
        createHash("sha512-256")
          .update(Uint8Array.of(0, 1, 2))
          .digest(),
      ),
    );
    expect(merkleLeaf(0x0014, a)).toEqual(sha512t256(Uint8Array.of(0, 0x00, 0x14, 1, 2)));
    const [l, r] = [merkleLeaf(null, a), merkleLeaf(null, Uint8Array.of(3))];
    expect(merkleNode(l, r)).toEqual(sha512t256(Uint8Array.of(1), l, r));
  });

  it("splits n leaves at the largest power of two below n", () => {
    const ls = [0, 1, 2, 3, 4].map((i) => merkleLeaf(null, Uint8Array.of(i)));
    const [a, b, c, d, e] = ls as [Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    expect(merkleRoot([a])).toEqual(a);
    expect(merkleRoot([a, b, c])).toEqual(merkleNode(merkleNode(a, b), c));
    expect(merkleRoot(ls)).toEqual(merkleNode(merkleNode(merkleNode(a, b), merkleNode(c, d)), e));
  });

  it("every index of a random tree has a proof to the root (property)", () => {
    fc.assert(
      fc.property(leavesArb, (leaves) => {
        const root = merkleRoot(leaves);
        leaves.forEach((leaf, i) => {
          expect(runMerkleProof(leaf, merkleProofSteps(leaves, i))).toEqual(root);
        });
      }),
      { numRuns: 100 },
    );
  });

  it("a flipped bit in the subject or any step fails (property)", () => {
    fc.assert(
      fc.property(leavesArb, fc.nat(), fc.nat(), fc.nat(255), (leaves, pick, stepPick, bit) => {
        if (leaves.length < 2) return;
        const i = pick % leaves.length;
        const root = merkleRoot(leaves);
        const steps = merkleProofSteps(leaves, i);
        const subject = (leaves[i] as Uint8Array).slice();
        subject[bit % 32] = (subject[bit % 32] as number) ^ (1 << (bit % 8));
        expect(runMerkleProof(subject, steps)).not.toEqual(root);
        const k = stepPick % steps.length;
        const step = steps[k] as (typeof steps)[number];
        const sibling = step.sibling.slice();
        sibling[bit % 32] = (sibling[bit % 32] as number) ^ (1 << (bit % 8));
        const bent = steps.map((s, j) => (j === k ? { ...s, sibling } : s));
        expect(runMerkleProof(leaves[i] as Uint8Array, bent)).not.toEqual(root);
        const flipped = steps.map((s, j) => (j === k ? { ...s, side: (1 - s.side) as 0 | 1 } : s));
        expect(runMerkleProof(leaves[i] as Uint8Array, flipped)).not.toEqual(root);
      }),
      { numRuns: 200 },
    );
  });

  it("proof objects round-trip (property) and malformed ones fail with CRYPTO_BAD_PROOF", () => {
    fc.assert(
      fc.property(
        leavesArb,
        fc.nat(),
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        (leaves, pick, pos) => {
          const steps = merkleProofSteps(leaves, pick % leaves.length);
          const obj = encodeMerkleProofObject(pos, steps);
          expect(decodeMerkleProofObject(obj)).toEqual({ position: pos, steps });
        },
      ),
      { numRuns: 100 },
    );
    const good = encodeMerkleProofObject(
      1n,
      merkleProofSteps([merkleLeaf(null, Uint8Array.of(1)), merkleLeaf(null, Uint8Array.of(2))], 0),
    );
    const badSide = good.slice();
    badSide[12] = 2;
    for (const bad of [good.subarray(0, 11), good.subarray(0, good.length - 1), badSide]) {
      try {
        decodeMerkleProofObject(bad);
        expect.unreachable();
      } catch (e) {
        expect(isNodeError(e, "CRYPTO_BAD_PROOF")).toBe(true);
      }
    }
  });

  it("refuses empty trees, bad nodes and bad indices", () => {
    for (const f of [
      () => merkleRoot([]),
      () => merkleRoot([new Uint8Array(31)]),
      () => merkleProofSteps([new Uint8Array(32)], 1),
      () => merkleProofSteps([new Uint8Array(32)], -1),
    ]) {
      try {
        f();
        expect.unreachable();
      } catch (e) {
        expect(isNodeError(e, "CRYPTO_BAD_MERKLE_INPUT")).toBe(true);
      }
    }
  });
});
