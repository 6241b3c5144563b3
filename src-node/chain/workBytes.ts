/**
 * Mining work bytes (reference chainweb-api.md §1.6; the spec's "Work bytes"):
 * 322 bytes = chain id (u32 LE, 4) ‖ target (32, LE) ‖ work header (286).
 * Inside them the creation time sits at bytes 44–51 and the nonce at 314–321
 * (work-header offsets 8 and 278, plus 36). A miner hashes bytes 36–321, may
 * change the nonce and the creation time, and nothing else.
 * @module
 */
import { EncodingError, EncodingErrorCode } from "../encoding/errors.ts";
import {
  readI64,
  readU32,
  readU64,
  readU256,
  writeI64,
  writeU32,
  writeU64,
  writeU256,
} from "../encoding/littleEndian.ts";
import { HeaderOffset, type UnhashedBlockHeader, WORK_HEADER_SIZE } from "./blockHeader.ts";
import { encodeWorkHeader } from "./blockHeaderBinary.ts";

export const WORK_BYTES_SIZE = 4 + 32 + WORK_HEADER_SIZE;

/** Byte offsets inside the 322 work bytes. */
export const WorkOffset = {
  chainId: 0,
  target: 4,
  workHeader: 36,
  creationTime: 36 + HeaderOffset.creationTime,
  nonce: 36 + HeaderOffset.nonce,
} as const;

function requireWork(work: Uint8Array): void {
  if (!(work instanceof Uint8Array) || work.length !== WORK_BYTES_SIZE) {
    throw new EncodingError(
      {
        code: EncodingErrorCode.BadLength,
        field: "work",
        expected: WORK_BYTES_SIZE,
        actual: work instanceof Uint8Array ? work.length : -1,
      },
      `work: work bytes are ${WORK_BYTES_SIZE} bytes`,
    );
  }
}

/** The 322 work bytes of an unsolved header. */
export function encodeWorkBytes(header: UnhashedBlockHeader): Uint8Array {
  const out = new Uint8Array(WORK_BYTES_SIZE);
  writeU32(out, WorkOffset.chainId, header.chainId, "chainId");
  writeU256(out, WorkOffset.target, header.target, "target");
  out.set(encodeWorkHeader(header), WorkOffset.workHeader);
  return out;
}

/**
 * The 286-byte work header inside work bytes (what is hashed and what a miner submits); a copy.
 * @throws {EncodingError} ENC_BAD_LENGTH naming `work`.
 */
export function workHeaderOf(work: Uint8Array): Uint8Array {
  requireWork(work);
  return work.slice(WorkOffset.workHeader);
}

/** The informational chain id and target at the front of work bytes. */
export function workPrefixOf(work: Uint8Array): { chainId: number; target: bigint } {
  requireWork(work);
  return {
    chainId: readU32(work, WorkOffset.chainId, "chainId"),
    target: readU256(work, WorkOffset.target, "target"),
  };
}

export function readWorkNonce(work: Uint8Array): bigint {
  requireWork(work);
  return readU64(work, WorkOffset.nonce, "nonce");
}

export function readWorkCreationTime(work: Uint8Array): number {
  requireWork(work);
  return Number(readI64(work, WorkOffset.creationTime, "creationTime"));
}

/** A copy of `work` with the nonce replaced. */
export function withWorkNonce(work: Uint8Array, nonce: bigint): Uint8Array {
  requireWork(work);
  const out = work.slice();
  writeU64(out, WorkOffset.nonce, nonce, "nonce");
  return out;
}

/** A copy of `work` with the creation time (µs) replaced. */
export function withWorkCreationTime(work: Uint8Array, creationTime: number): Uint8Array {
  requireWork(work);
  const out = work.slice();
  writeI64(out, WorkOffset.creationTime, BigInt(creationTime), "creationTime");
  return out;
}
