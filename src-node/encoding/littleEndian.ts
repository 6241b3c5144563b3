/**
 * Little-endian integer codecs for the block-header binary format: u16, u32,
 * u64 (bigint), i64 (bigint, two's complement) and unsigned 256-bit numbers.
 * Readers check bounds and name the field; writers check ranges.
 * @module
 */
import { EncodingError, EncodingErrorCode } from "./errors.ts";

const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
/** 2^256 − 1, the largest 256-bit value (the maximal target). */
export const U256_MAX = (1n << 256n) - 1n;

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function need(bytes: Uint8Array, offset: number, size: number, field: string): void {
  if (offset < 0 || offset + size > bytes.length) {
    throw new EncodingError(
      { code: EncodingErrorCode.BadLength, field, expected: offset + size, actual: bytes.length },
      `${field}: needs ${size} bytes at offset ${offset}, input has ${bytes.length}`,
    );
  }
}

function range(value: bigint | number, min: bigint, max: bigint, field: string): void {
  const v = BigInt(value);
  if (v < min || v > max) {
    throw new EncodingError(
      { code: EncodingErrorCode.OutOfRange, field, value: v.toString() },
      `${field}: ${v} is outside [${min}, ${max}]`,
    );
  }
}

export function readU16(bytes: Uint8Array, offset: number, field: string): number {
  need(bytes, offset, 2, field);
  return view(bytes).getUint16(offset, true);
}

export function readU32(bytes: Uint8Array, offset: number, field: string): number {
  need(bytes, offset, 4, field);
  return view(bytes).getUint32(offset, true);
}

export function readU64(bytes: Uint8Array, offset: number, field: string): bigint {
  need(bytes, offset, 8, field);
  return view(bytes).getBigUint64(offset, true);
}

export function readI64(bytes: Uint8Array, offset: number, field: string): bigint {
  need(bytes, offset, 8, field);
  return view(bytes).getBigInt64(offset, true);
}

export function writeU16(bytes: Uint8Array, offset: number, value: number, field: string): void {
  range(value, 0n, 0xffffn, field);
  need(bytes, offset, 2, field);
  view(bytes).setUint16(offset, value, true);
}

export function writeU32(bytes: Uint8Array, offset: number, value: number, field: string): void {
  range(value, 0n, 0xffffffffn, field);
  need(bytes, offset, 4, field);
  view(bytes).setUint32(offset, value, true);
}

export function writeU64(bytes: Uint8Array, offset: number, value: bigint, field: string): void {
  range(value, 0n, U64_MAX, field);
  need(bytes, offset, 8, field);
  view(bytes).setBigUint64(offset, value, true);
}

export function writeI64(bytes: Uint8Array, offset: number, value: bigint, field: string): void {
  range(value, I64_MIN, I64_MAX, field);
  need(bytes, offset, 8, field);
  view(bytes).setBigInt64(offset, value, true);
}

/** Reads an unsigned 256-bit little-endian number. */
export function readU256(bytes: Uint8Array, offset: number, field: string): bigint {
  need(bytes, offset, 32, field);
  let v = 0n;
  for (let i = 31; i >= 0; i--) v = (v << 8n) | BigInt(bytes[offset + i] as number);
  return v;
}

/** Writes an unsigned 256-bit little-endian number. */
export function writeU256(bytes: Uint8Array, offset: number, value: bigint, field: string): void {
  range(value, 0n, U256_MAX, field);
  need(bytes, offset, 32, field);
  let v = value;
  for (let i = 0; i < 32; i++) {
    bytes[offset + i] = Number(v & 0xffn);
    v >>= 8n;
  }
}

/** The 32-byte little-endian encoding of an unsigned 256-bit number. */
export function u256ToBytes(value: bigint, field: string): Uint8Array {
  const out = new Uint8Array(32);
  writeU256(out, 0, value, field);
  return out;
}

/** The unsigned 256-bit number of 32 little-endian bytes. */
export function u256FromBytes(bytes: Uint8Array, field: string): bigint {
  if (bytes.length !== 32) {
    throw new EncodingError(
      { code: EncodingErrorCode.BadLength, field, expected: 32, actual: bytes.length },
      `${field}: a 256-bit number is 32 bytes, got ${bytes.length}`,
    );
  }
  return readU256(bytes, 0, field);
}
