/**
 * Block header throughput: binary decode with and without the block-hash
 * check, encode, block hash (SHA-512/256 Merkle root), PoW hash, object
 * form, and full header validation, per second on one thread. Baseline: one
 * bare SHA-512/256 of 318 bytes with node:crypto.
 */
import { createHash } from "node:crypto";
import { computeBlockHash } from "../../src-node/chain/blockHash.ts";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { decodeBlockHeader, encodeBlockHeader } from "../../src-node/chain/blockHeaderBinary.ts";
import {
  blockHeaderFromObject,
  blockHeaderToObject,
} from "../../src-node/chain/blockHeaderObject.ts";
import { headerValidationFailures } from "../../src-node/chain/headerValidation.ts";
import { powHash } from "../../src-node/chain/pow.ts";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import { simChainweb } from "../support/chainSimulator.ts";
import { scaled } from "./support/scaled.ts";

function report(metric: string, perSecond: number): void {
  console.log(`BENCH chainHeader ${metric}=${Math.round(perSecond)} 1/s`);
}

function rate(ms: number, op: () => void): number {
  const warm = performance.now() + 200;
  while (performance.now() < warm) op();
  let done = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 100; i++) op();
    done += 100;
    now = performance.now();
  }
  return (done * 1000) / (now - start);
}

const sim = simChainweb(testSingletonVersion);
for (let r = 0; r < 3; r++) for (let c = 0; c < 10; c++) sim.mine(c);
const header = sim.mine(0) as BlockHeader;
const input = sim.validationInput(header, header.creationTime);
const bytes = encodeBlockHeader(header);
const object = blockHeaderToObject(header);

report(
  "baseline_sha512_256_of_318_bytes",
  rate(scaled(1000), () => createHash("sha512-256").update(bytes).digest()),
);
report(
  "decode_verified",
  rate(scaled(1500), () => decodeBlockHeader(bytes)),
);
report(
  "decode_trusted",
  rate(scaled(1500), () => decodeBlockHeader(bytes, { verifyHash: false })),
);
report(
  "encode",
  rate(scaled(1500), () => encodeBlockHeader(header)),
);
report(
  "block_hash",
  rate(scaled(1500), () => computeBlockHash(header)),
);
report(
  "pow_hash",
  rate(scaled(1500), () => powHash(header)),
);
report(
  "object_round_trip",
  rate(scaled(1500), () => blockHeaderFromObject(blockHeaderToObject(header))),
);
report(
  "object_decode",
  rate(scaled(1500), () => blockHeaderFromObject(object)),
);
report(
  "validate",
  rate(scaled(1500), () => headerValidationFailures(input)),
);
