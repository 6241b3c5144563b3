/**
 * Encoding primitives: strict unpadded base64url (one accepted text per byte
 * string), hex, little-endian integer codecs, and Hash32, with fast-check
 * round trips and coded errors for bad input.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  base64UrlDecode,
  base64UrlDecodeText,
  base64UrlEncode,
  base64UrlEncodeText,
  decodeHash,
  isHashText,
} from "../../src-node/encoding/base64url.ts";
import {
  compareHash32,
  hash32Bytes,
  hash32FromBytes,
  parseHash32,
} from "../../src-node/encoding/hash32.ts";
import { hexDecode, hexEncode, isHex } from "../../src-node/encoding/hex.ts";
import {
  readI64,
  readU16,
  readU32,
  readU64,
  readU256,
  U256_MAX,
  u256FromBytes,
  u256ToBytes,
  writeI64,
  writeU16,
  writeU32,
  writeU64,
  writeU256,
} from "../../src-node/encoding/littleEndian.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";

function failure(f: () => unknown): { code: string; field: string } {
  try {
    f();
  } catch (e) {
    if (isNodeError(e)) {
      return { code: e.code, field: (e.type as unknown as { field: string }).field };
    }
    throw e;
  }
  throw new Error("expected a coded error");
}

describe("[encoding] base64url", () => {
  it("round-trips bytes and text (property)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => {
        const t = base64UrlEncode(b);
        expect(t).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(base64UrlDecode(t, "x")).toEqual(b);
      }),
    );
    fc.assert(
      fc.property(fc.string(), (s) => {
        const wellFormed = Buffer.from(s, "utf8").toString("utf8");
        expect(base64UrlDecodeText(base64UrlEncodeText(s), "x")).toBe(wellFormed);
      }),
    );
  });

  it("accepts exactly one text per byte string (property)", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".split(""),
          ),
          maxLength: 30,
        }),
        (t) => {
          let bytes: Uint8Array | undefined;
          try {
            bytes = base64UrlDecode(t, "x");
          } catch (e) {
            expect(isNodeError(e, "ENC_BAD_BASE64URL")).toBe(true);
            return;
          }
          expect(base64UrlEncode(bytes)).toBe(t);
        },
      ),
    );
  });

  it("rejects padding, other alphabets, whitespace, impossible lengths and set trailing bits", () => {
    for (const bad of ["AQ==", "AQ=", "a+b/", "AQ\n", " AQ", "A", "AAAAA", "AR", "AAB"]) {
      expect(
        failure(() => base64UrlDecode(bad, "field1")),
        bad,
      ).toEqual({
        code: "ENC_BAD_BASE64URL",
        field: "field1",
      });
    }
    expect(base64UrlDecode("", "x")).toEqual(new Uint8Array(0));
    expect(failure(() => base64UrlDecode(7 as unknown as string, "f"))).toEqual({
      code: "ENC_BAD_TYPE",
      field: "f",
    });
  });

  it("hash texts are 43 characters", () => {
    const h = base64UrlEncode(new Uint8Array(32).fill(7));
    expect(isHashText(h)).toBe(true);
    expect(isHashText(`${h}A`)).toBe(false);
    expect(decodeHash(h, "h").length).toBe(32);
    expect(failure(() => decodeHash(h.slice(1), "key"))).toEqual({
      code: "ENC_BAD_LENGTH",
      field: "key",
    });
  });
});

describe("[encoding] Hash32", () => {
  it("round-trips bytes (property) and orders by raw bytes", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (a, b) => {
          const ha = hash32FromBytes(a);
          expect(hash32Bytes(ha)).toEqual(a);
          expect(parseHash32(ha, "h")).toBe(ha);
          expect(Math.sign(compareHash32(ha, hash32FromBytes(b)))).toBe(
            Math.sign(Buffer.compare(a, b)),
          );
        },
      ),
    );
  });
  it("rejects non-strings, wrong lengths and bad text", () => {
    expect(failure(() => parseHash32(null, "parent"))).toEqual({
      code: "ENC_BAD_TYPE",
      field: "parent",
    });
    expect(failure(() => parseHash32("AAAA", "parent"))).toEqual({
      code: "ENC_BAD_LENGTH",
      field: "parent",
    });
    expect(failure(() => parseHash32(`${"A".repeat(42)}B`, "parent"))).toEqual({
      code: "ENC_BAD_BASE64URL",
      field: "parent",
    });
    expect(failure(() => hash32FromBytes(new Uint8Array(31), "x"))).toEqual({
      code: "ENC_BAD_LENGTH",
      field: "x",
    });
  });
});

describe("[encoding] hex", () => {
  it("round-trips (property), decodes either case", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        const h = hexEncode(b);
        expect(h).toMatch(/^[0-9a-f]*$/);
        expect(hexDecode(h.toUpperCase(), "x")).toEqual(b);
        expect(isHex(h, b.length)).toBe(true);
      }),
    );
  });
  it("rejects odd lengths, non-hex and wrong byte lengths", () => {
    expect(failure(() => hexDecode("abc", "key"))).toEqual({ code: "ENC_BAD_HEX", field: "key" });
    expect(failure(() => hexDecode("zz", "key"))).toEqual({ code: "ENC_BAD_HEX", field: "key" });
    expect(failure(() => hexDecode("0x00", "key"))).toEqual({ code: "ENC_BAD_HEX", field: "key" });
    expect(failure(() => hexDecode("00", "key", 32))).toEqual({
      code: "ENC_BAD_LENGTH",
      field: "key",
    });
  });
});

describe("[encoding] little-endian integers", () => {
  it("round-trip at every offset (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffff }),
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }),
        fc.bigInt({ min: 0n, max: U256_MAX }),
        fc.integer({ min: 0, max: 5 }),
        (u16, u32, u64, i64, u256, off) => {
          const b = new Uint8Array(off + 54);
          writeU16(b, off, u16, "a");
          writeU32(b, off + 2, u32, "b");
          writeU64(b, off + 6, u64, "c");
          writeI64(b, off + 14, i64, "d");
          writeU256(b, off + 22, u256, "e");
          expect(readU16(b, off, "a")).toBe(u16);
          expect(readU32(b, off + 2, "b")).toBe(u32);
          expect(readU64(b, off + 6, "c")).toBe(u64);
          expect(readI64(b, off + 14, "d")).toBe(i64);
          expect(readU256(b, off + 22, "e")).toBe(u256);
          expect(u256FromBytes(u256ToBytes(u256, "e"), "e")).toBe(u256);
        },
      ),
    );
  });
  it("is little-endian", () => {
    expect(u256ToBytes(1n, "x")[0]).toBe(1);
    expect(u256ToBytes(1n << 248n, "x")[31]).toBe(1);
    const b = new Uint8Array(8);
    writeU64(b, 0, 0x0102030405060708n, "x");
    expect([...b]).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    writeI64(b, 0, -1n, "x");
    expect([...b]).toEqual(Array(8).fill(255));
  });
  it("rejects out-of-range values and short input, naming the field", () => {
    const b = new Uint8Array(32);
    expect(failure(() => writeU16(b, 0, 0x10000, "count"))).toEqual({
      code: "ENC_OUT_OF_RANGE",
      field: "count",
    });
    expect(failure(() => writeU32(b, 0, -1, "chainId"))).toEqual({
      code: "ENC_OUT_OF_RANGE",
      field: "chainId",
    });
    expect(failure(() => writeU64(b, 0, 1n << 64n, "nonce"))).toEqual({
      code: "ENC_OUT_OF_RANGE",
      field: "nonce",
    });
    expect(failure(() => writeI64(b, 0, 1n << 63n, "time"))).toEqual({
      code: "ENC_OUT_OF_RANGE",
      field: "time",
    });
    expect(failure(() => writeU256(b, 0, U256_MAX + 1n, "target"))).toEqual({
      code: "ENC_OUT_OF_RANGE",
      field: "target",
    });
    expect(failure(() => readU64(b, 28, "height"))).toEqual({
      code: "ENC_BAD_LENGTH",
      field: "height",
    });
    expect(failure(() => readU256(b, 1, "weight"))).toEqual({
      code: "ENC_BAD_LENGTH",
      field: "weight",
    });
    expect(failure(() => u256FromBytes(new Uint8Array(31), "target"))).toEqual({
      code: "ENC_BAD_LENGTH",
      field: "target",
    });
  });
});
