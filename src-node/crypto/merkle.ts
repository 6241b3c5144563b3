/**
 * SHA-512/256 Merkle trees as the reference ledger builds them (merkle-log,
 * RFC 6962 shaped; reference chainweb-api.md §1.4, §7.1, §9.1).
 *
 * - An input leaf with bytes b hashes to H(0x00 ‖ b); chainweb logs prefix b
 *   with a 2-byte big-endian tag ({@link merkleLeaf}).
 * - A nested root (a 32-byte hash that is itself a Merkle root) is placed in
 *   the tree as-is.
 * - An inner node is H(0x01 ‖ left ‖ right); for n nodes the left subtree
 *   holds the first k, k the largest power of two strictly below n.
 *
 * Proof steps run from the subject upward. Side 0x00 means the sibling is on
 * the left (h = H(0x01 ‖ sibling ‖ h)), side 0x01 that it is on the right.
 * @module
 */
import { hash } from "node:crypto";
import { CryptoError, CryptoErrorCode } from "./errors.ts";

/** One step of an inclusion proof. */
export type MerkleProofStep = { readonly side: 0 | 1; readonly sibling: Uint8Array };

/** SHA-512/256 of the concatenation of `parts`. */
export function sha512t256(...parts: Uint8Array[]): Uint8Array {
  // One-shot over the joined parts: a `createHash` object per call cost more than the
  // hashing itself (every header's Merkle tree hashes about 40 short inputs).
  const d = hash(
    "sha512-256",
    parts.length === 1 ? (parts[0] as Uint8Array) : concat(parts),
    "buffer",
  );
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const LEAF = Uint8Array.of(0x00);
const NODE = Uint8Array.of(0x01);

/**
 * The hash of an input leaf: H(0x00 ‖ tag_be16 ‖ bytes), or H(0x00 ‖ bytes)
 * when `tag` is null (the untagged genesis-parent tree).
 */
export function merkleLeaf(tag: number | null, bytes: Uint8Array): Uint8Array {
  if (tag === null) return sha512t256(LEAF, bytes);
  return sha512t256(LEAF, Uint8Array.of((tag >> 8) & 0xff, tag & 0xff), bytes);
}

/** The bytes a tagged leaf hashes (tag_be16 ‖ bytes); the SPV `subject.input`. */
export function taggedLeafInput(tag: number, bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(2 + bytes.length);
  out[0] = (tag >> 8) & 0xff;
  out[1] = tag & 0xff;
  out.set(bytes, 2);
  return out;
}

/** H(0x01 ‖ left ‖ right). */
export function merkleNode(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha512t256(NODE, left, right);
}

function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The root over node hashes (leaf hashes from {@link merkleLeaf} and nested roots).
 * @throws {CryptoError} CRYPTO_BAD_MERKLE_INPUT for an empty list or a node that is not 32 bytes.
 */
export function merkleRoot(nodes: readonly Uint8Array[]): Uint8Array {
  if (nodes.length === 0) {
    throw new CryptoError(
      { code: CryptoErrorCode.BadMerkleInput, reason: "empty tree" },
      "Merkle tree: no nodes",
    );
  }
  for (const n of nodes) {
    if (n.length !== 32) {
      throw new CryptoError(
        { code: CryptoErrorCode.BadMerkleInput, reason: "node is not 32 bytes" },
        "Merkle tree: every node is a 32-byte hash",
      );
    }
  }
  return rootOf(nodes, 0, nodes.length);
}

function rootOf(nodes: readonly Uint8Array[], from: number, to: number): Uint8Array {
  const n = to - from;
  if (n === 1) return nodes[from] as Uint8Array;
  const k = split(n);
  return merkleNode(rootOf(nodes, from, from + k), rootOf(nodes, from + k, to));
}

/**
 * The inclusion proof of `nodes[index]` in the tree over `nodes`, from the
 * subject upward.
 */
export function merkleProofSteps(nodes: readonly Uint8Array[], index: number): MerkleProofStep[] {
  if (!Number.isInteger(index) || index < 0 || index >= nodes.length) {
    throw new CryptoError(
      { code: CryptoErrorCode.BadMerkleInput, reason: "index out of range" },
      `Merkle proof: index ${index} outside a tree of ${nodes.length} nodes`,
    );
  }
  merkleRoot(nodes); // validates the nodes
  const steps: MerkleProofStep[] = [];
  let from = 0;
  let to = nodes.length;
  // Collected top-down, returned bottom-up.
  while (to - from > 1) {
    const k = split(to - from);
    if (index < from + k) {
      steps.push({ side: 1, sibling: rootOf(nodes, from + k, to) });
      to = from + k;
    } else {
      steps.push({ side: 0, sibling: rootOf(nodes, from, from + k) });
      from = from + k;
    }
  }
  return steps.reverse();
}

/** Runs proof steps from a subject node hash to the root they prove. */
export function runMerkleProof(subject: Uint8Array, steps: readonly MerkleProofStep[]): Uint8Array {
  let h = subject;
  for (const s of steps) h = s.side === 0 ? merkleNode(s.sibling, h) : merkleNode(h, s.sibling);
  return h;
}

/**
 * The merkle-log proof object: u32be step count ‖ u64be subject position ‖
 * steps of (side byte ‖ 32-byte sibling).
 */
export function encodeMerkleProofObject(
  position: bigint,
  steps: readonly MerkleProofStep[],
): Uint8Array {
  const out = new Uint8Array(12 + steps.length * 33);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, steps.length, false);
  dv.setBigUint64(4, position, false);
  steps.forEach((s, i) => {
    out[12 + i * 33] = s.side;
    out.set(s.sibling, 13 + i * 33);
  });
  return out;
}

/**
 * Decodes a merkle-log proof object.
 * @throws {CryptoError} CRYPTO_BAD_PROOF when the length or a side byte is wrong.
 */
export function decodeMerkleProofObject(bytes: Uint8Array): {
  position: bigint;
  steps: MerkleProofStep[];
} {
  const bad = (reason: string): never => {
    throw new CryptoError(
      { code: CryptoErrorCode.BadProof, reason },
      `Merkle proof object: ${reason}`,
    );
  };
  if (bytes.length < 12) bad("shorter than its 12-byte header");
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = dv.getUint32(0, false);
  const position = dv.getBigUint64(4, false);
  if (bytes.length !== 12 + count * 33) bad(`length ${bytes.length} does not match ${count} steps`);
  const steps: MerkleProofStep[] = [];
  for (let i = 0; i < count; i++) {
    const side = bytes[12 + i * 33];
    if (side !== 0 && side !== 1) bad(`step ${i} has side byte ${side}`);
    steps.push({
      side: side as 0 | 1,
      sibling: bytes.slice(13 + i * 33, 13 + i * 33 + 32),
    });
  }
  return { position, steps };
}
