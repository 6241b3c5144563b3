/**
 * Header codecs: binary (318 bytes), work header (286), object and base64url
 * text forms round-trip for arbitrary well-formed headers, and every decoder
 * rejects bad input with a coded error naming the field.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeBlockHash } from "../../src-node/chain/blockHash.ts";
import { type BlockHeader, HEADER_SIZE, HeaderOffset } from "../../src-node/chain/blockHeader.ts";
import {
  decodeBlockHeader,
  decodeWorkHeader,
  encodeBlockHeader,
  encodeWorkHeader,
} from "../../src-node/chain/blockHeaderBinary.ts";
import {
  blockHeaderFromObject,
  blockHeaderToObject,
} from "../../src-node/chain/blockHeaderObject.ts";
import {
  decodeBlockHeaderText,
  encodeBlockHeaderText,
} from "../../src-node/chain/blockHeaderText.ts";
import { headerAdjacentChains } from "../../src-node/chain/networkVersion.ts";
import {
  developmentVersion,
  mainnet01Version,
  testSingletonVersion,
} from "../../src-node/chain/versions.ts";
import { hash32FromBytes } from "../../src-node/encoding/hash32.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { headerArb } from "../support/chainArbitraries.ts";

function failure(f: () => unknown): { code: string; field: string } {
  try {
    f();
  } catch (e) {
    if (isNodeError(e))
      return { code: e.code, field: (e.type as unknown as { field: string }).field };
    throw e;
  }
  throw new Error("expected a coded error");
}

function makeHeader(overrides: Partial<BlockHeader> = {}): BlockHeader {
  const version = overrides.versionCode === undefined ? developmentVersion : mainnet01Version;
  const chainId = overrides.chainId ?? 0;
  const height = overrides.height ?? 100;
  const h = {
    featureFlags: 0n,
    creationTime: 1_700_000_000_000_000,
    parent: hash32FromBytes(new Uint8Array(32).fill(1)),
    adjacents: headerAdjacentChains(version, chainId, height).map((c) => ({
      chainId: c,
      hash: hash32FromBytes(new Uint8Array(32).fill(c + 2)),
    })),
    target: 1n << 200n,
    payloadHash: hash32FromBytes(new Uint8Array(32).fill(9)),
    chainId,
    weight: 12345n,
    height,
    versionCode: version.code,
    epochStart: 1_699_999_000_000_000,
    nonce: 42n,
    ...overrides,
  };
  return { ...h, hash: computeBlockHash(h) };
}

/** Patches bytes of an encoded header (the stored hash then no longer matters: shape checks come first). */
function patched(header: BlockHeader, offset: number, bytes: number[]): Uint8Array {
  const b = encodeBlockHeader(header);
  b.set(bytes, offset);
  return b;
}

describe("[chain] header codec round trips (property)", () => {
  it("binary: decode(encode(h)) = h, 318 bytes", () => {
    fc.assert(
      fc.property(headerArb, (h) => {
        const bytes = encodeBlockHeader(h);
        expect(bytes.length).toBe(HEADER_SIZE);
        expect(decodeBlockHeader(bytes)).toEqual(h);
      }),
      { numRuns: 300 },
    );
  });

  it("work header: 286 bytes, decoding computes the same hash", () => {
    fc.assert(
      fc.property(headerArb, (h) => {
        const work = encodeWorkHeader(h);
        expect(work.length).toBe(286);
        expect(decodeWorkHeader(work)).toEqual(h);
        expect(encodeBlockHeader(h).subarray(0, 286)).toEqual(work);
      }),
      { numRuns: 200 },
    );
  });

  it("object form through JSON text: decode(parse(stringify(toObject(h)))) = h", () => {
    fc.assert(
      fc.property(headerArb, (h) => {
        const json = JSON.stringify(blockHeaderToObject(h));
        expect(blockHeaderFromObject(JSON.parse(json))).toEqual(h);
      }),
      { numRuns: 200 },
    );
  });

  it("text form: base64url of the binary header", () => {
    fc.assert(
      fc.property(headerArb, (h) => {
        const text = encodeBlockHeaderText(h);
        expect(text).toMatch(/^[A-Za-z0-9_-]{424}$/);
        expect(decodeBlockHeaderText(text)).toEqual(h);
      }),
      { numRuns: 200 },
    );
  });

  it("any changed field changes the block hash", () => {
    fc.assert(
      fc.property(headerArb, fc.integer({ min: 0, max: 285 }), (h, i) => {
        const bytes = encodeBlockHeader(h);
        if (i >= 48 && i < 50) return; // adjacent count: a shape error, not a new hash
        bytes[i] = (bytes[i] as number) ^ 0x01;
        let other: BlockHeader;
        try {
          other = decodeWorkHeader(bytes.subarray(0, 286));
        } catch {
          return; // the flip made the header ill-formed (chain id, version, adjacents)
        }
        expect(other.hash).not.toBe(h.hash);
      }),
      { numRuns: 300 },
    );
  });
});

describe("[chain] header decoders reject bad input", () => {
  const good = makeHeader();

  it("wrong lengths", () => {
    const b = encodeBlockHeader(good);
    expect(failure(() => decodeBlockHeader(b.subarray(0, 317)))).toEqual({
      code: "ENC_BAD_LENGTH",
      field: "header",
    });
    const longer = new Uint8Array(319);
    longer.set(b);
    expect(failure(() => decodeBlockHeader(longer))).toEqual({
      code: "ENC_BAD_LENGTH",
      field: "header",
    });
    expect(failure(() => decodeBlockHeader(new Uint8Array(0)))).toEqual({
      code: "ENC_BAD_LENGTH",
      field: "header",
    });
    expect(failure(() => decodeWorkHeader(b))).toEqual({
      code: "ENC_BAD_LENGTH",
      field: "workHeader",
    });
    expect(failure(() => decodeWorkHeader(b.subarray(0, 285)))).toEqual({
      code: "ENC_BAD_LENGTH",
      field: "workHeader",
    });
    // an adjacent count that does not match the length
    expect(
      failure(() => decodeBlockHeader(patched(good, HeaderOffset.adjacentCount, [4, 0]))),
    ).toEqual({ code: "ENC_BAD_LENGTH", field: "header" });
  });

  it("non-bytes input", () => {
    expect(failure(() => decodeBlockHeader("x" as unknown as Uint8Array))).toEqual({
      code: "ENC_BAD_TYPE",
      field: "header",
    });
  });

  it("bad base64url text", () => {
    const text = encodeBlockHeaderText(good);
    for (const bad of [`${text}=`, `${text.slice(0, -1)}+`, text.replace(/^./, "*"), " "]) {
      expect(failure(() => decodeBlockHeaderText(bad))).toEqual({
        code: "ENC_BAD_BASE64URL",
        field: "header",
      });
    }
    expect(failure(() => decodeBlockHeaderText(text.slice(0, -4)))).toEqual({
      code: "ENC_BAD_LENGTH",
      field: "header",
    });
    expect(failure(() => decodeBlockHeaderText(42 as unknown as string))).toEqual({
      code: "ENC_BAD_TYPE",
      field: "header",
    });
  });

  it("unknown version code", () => {
    expect(
      failure(() => decodeBlockHeader(patched(good, HeaderOffset.versionCode, [0x33, 0, 0, 0]))),
    ).toEqual({ code: "CHAIN_UNKNOWN_VERSION", field: "versionCode" });
  });

  it("chain ids that are not chains of the version at that height", () => {
    // chain 25 does not exist on development
    expect(
      failure(() => decodeBlockHeader(patched(good, HeaderOffset.chainId, [25, 0, 0, 0]))),
    ).toEqual({ code: "CHAIN_BAD_CHAIN_ID", field: "chainId" });
    // chain 12 exists on test-singleton never
    const single = makeHeader({ versionCode: testSingletonVersion.code, chainId: 0, height: 5 });
    expect(
      failure(() => decodeBlockHeader(patched(single, HeaderOffset.chainId, [12, 0, 0, 0]))),
    ).toEqual({ code: "CHAIN_BAD_CHAIN_ID", field: "chainId" });
    // mainnet01 chain 10 exists only from height 852,054
    const main = makeHeader({ versionCode: mainnet01Version.code, chainId: 0, height: 5 });
    expect(
      failure(() => decodeBlockHeader(patched(main, HeaderOffset.chainId, [10, 0, 0, 0]))),
    ).toEqual({ code: "CHAIN_BAD_CHAIN_ID", field: "chainId" });
  });

  it("heights out of range", () => {
    expect(
      failure(() =>
        decodeBlockHeader(patched(good, HeaderOffset.height, [0, 0, 0, 0, 0, 0, 0x20, 0])),
      ),
    ).toEqual({ code: "CHAIN_HEIGHT_OUT_OF_RANGE", field: "height" });
  });

  it("times out of range", () => {
    expect(
      failure(() =>
        decodeBlockHeader(patched(good, HeaderOffset.creationTime, [0, 0, 0, 0, 0, 0, 0, 0x80])),
      ),
    ).toEqual({ code: "ENC_OUT_OF_RANGE", field: "creationTime" });
    expect(
      failure(() =>
        decodeBlockHeader(patched(good, HeaderOffset.epochStart, [0, 0, 0, 0, 0, 0, 0x40, 0])),
      ),
    ).toEqual({ code: "ENC_OUT_OF_RANGE", field: "epochStart" });
  });

  it("unsorted, duplicate or wrong adjacent chains", () => {
    // development chain 0 at height 100 is adjacent to 5, 10, 15 (entries at 50, 86, 122)
    const swap = encodeBlockHeader(good);
    swap.set([10, 0, 0, 0], 50);
    swap.set([5, 0, 0, 0], 86);
    expect(failure(() => decodeBlockHeader(swap))).toEqual({
      code: "CHAIN_BAD_ADJACENTS",
      field: "adjacents",
    });
    expect(failure(() => decodeBlockHeader(patched(good, 86, [5, 0, 0, 0])))).toEqual({
      code: "CHAIN_BAD_ADJACENTS",
      field: "adjacents",
    });
    expect(failure(() => decodeBlockHeader(patched(good, 122, [16, 0, 0, 0])))).toEqual({
      code: "CHAIN_BAD_ADJACENTS",
      field: "adjacents",
    });
  });

  it("a wrong stored hash", () => {
    const b = encodeBlockHeader(good);
    b[317] = (b[317] as number) ^ 1;
    expect(failure(() => decodeBlockHeader(b))).toEqual({
      code: "CHAIN_HASH_MISMATCH",
      field: "hash",
    });
    expect(decodeBlockHeader(b, { verifyHash: false }).hash).not.toBe(good.hash);
  });

  describe("object form", () => {
    const obj = blockHeaderToObject(good) as unknown as Record<string, unknown>;
    const withField = (k: string, v: unknown) => ({ ...obj, [k]: v });

    it("missing and unknown keys", () => {
      const { nonce: _n, ...missing } = obj;
      expect(failure(() => blockHeaderFromObject(missing))).toEqual({
        code: "CHAIN_BAD_HEADER_OBJECT",
        field: "nonce",
      });
      expect(failure(() => blockHeaderFromObject(withField("chainwebVersion", "x")))).toEqual({
        code: "CHAIN_BAD_HEADER_OBJECT",
        field: "chainwebVersion",
      });
      expect(failure(() => blockHeaderFromObject([obj]))).toEqual({
        code: "ENC_BAD_TYPE",
        field: "header",
      });
    });

    it("wrong types and ranges", () => {
      const cases: [string, unknown, string][] = [
        ["nonce", 42, "ENC_BAD_TYPE"],
        ["nonce", "042", "ENC_BAD_TYPE"],
        ["nonce", "18446744073709551616", "ENC_OUT_OF_RANGE"],
        ["creationTime", "1", "ENC_BAD_TYPE"],
        ["creationTime", -1, "ENC_OUT_OF_RANGE"],
        ["creationTime", 1.5, "ENC_OUT_OF_RANGE"],
        ["height", 2 ** 53, "ENC_OUT_OF_RANGE"],
        ["chainId", 2 ** 32, "ENC_OUT_OF_RANGE"],
        ["featureFlags", -1, "ENC_OUT_OF_RANGE"],
        ["parent", "abc", "ENC_BAD_LENGTH"],
        ["parent", `${"*".repeat(43)}`, "ENC_BAD_BASE64URL"],
        ["payloadHash", null, "ENC_BAD_TYPE"],
        ["target", "AAAA", "ENC_BAD_LENGTH"],
        ["weight", "A", "ENC_BAD_BASE64URL"],
        ["hash", 7, "ENC_BAD_TYPE"],
      ];
      for (const [k, v, code] of cases) {
        expect(
          failure(() => blockHeaderFromObject(withField(k, v))),
          `${k}=${String(v)}`,
        ).toEqual({
          code,
          field: k,
        });
      }
    });

    it("unknown network name, bad chain ids and adjacents", () => {
      expect(failure(() => blockHeaderFromObject(withField("ledgerVersion", "nope")))).toEqual({
        code: "CHAIN_UNKNOWN_VERSION",
        field: "ledgerVersion",
      });
      expect(failure(() => blockHeaderFromObject(withField("chainId", 20)))).toEqual({
        code: "CHAIN_BAD_CHAIN_ID",
        field: "chainId",
      });
      const adj = obj.adjacents as Record<string, string>;
      expect(
        failure(() => blockHeaderFromObject(withField("adjacents", { ...adj, "05": adj["5"] }))),
      ).toEqual({ code: "CHAIN_BAD_HEADER_OBJECT", field: "adjacents" });
      const { 5: _five, ...two } = adj;
      expect(failure(() => blockHeaderFromObject(withField("adjacents", two)))).toEqual({
        code: "CHAIN_BAD_ADJACENTS",
        field: "adjacents",
      });
      expect(
        failure(() => blockHeaderFromObject(withField("adjacents", { ...adj, 5: "short" }))),
      ).toEqual({ code: "ENC_BAD_LENGTH", field: "adjacents.5" });
    });

    it("a hash that does not match the fields", () => {
      expect(failure(() => blockHeaderFromObject(withField("nonce", "43")))).toEqual({
        code: "CHAIN_HASH_MISMATCH",
        field: "hash",
      });
    });
  });
});
