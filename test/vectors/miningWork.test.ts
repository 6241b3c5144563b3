/**
 * Shared vectors mining-work.json: the 322 work bytes of mainnet block
 * 1,000,000, their offsets, the nonce/creation-time helpers, the PoW hash of
 * bytes 36–321 and the block hash of the 286-byte solved header.
 */
import { describe, expect, it } from "vitest";
import { decodeWorkHeader } from "../../src-node/chain/blockHeaderBinary.ts";
import { meetsTarget, powHashOfWorkHeader } from "../../src-node/chain/pow.ts";
import {
  encodeWorkBytes,
  readWorkCreationTime,
  readWorkNonce,
  WORK_BYTES_SIZE,
  WorkOffset,
  withWorkCreationTime,
  withWorkNonce,
  workHeaderOf,
  workPrefixOf,
} from "../../src-node/chain/workBytes.ts";
import { base64UrlDecode, base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { loadVectors } from "../support/vectors.ts";

type WorkCase = {
  name: string;
  chainId?: number;
  targetHex?: string;
  workLength?: number;
  workBase64: string;
  offsets?: Record<string, [number, number]>;
  creationTime: number;
  nonce: string;
  solvedHeader286Base64?: string;
  powHashBase64: string;
  powValid: boolean;
  blockHashOfSolvedHeader: string;
};

const { cases } = loadVectors<WorkCase>("mining-work.json");
const [real, nonceZero, laterTime] = cases as [WorkCase, WorkCase, WorkCase];
const work = base64UrlDecode(real.workBase64, "work");

describe("[chain] mining-work.json vectors", () => {
  it("encodes the work bytes of the solved header", () => {
    const header = decodeWorkHeader(workHeaderOf(work));
    expect(WORK_BYTES_SIZE).toBe(real.workLength);
    expect(base64UrlEncode(encodeWorkBytes(header))).toBe(real.workBase64);
    expect(workPrefixOf(work)).toEqual({
      chainId: real.chainId,
      target: BigInt(`0x${real.targetHex}`),
    });
    expect(base64UrlEncode(workHeaderOf(work))).toBe(real.solvedHeader286Base64);
  });

  it("has the documented offsets", () => {
    const o = real.offsets ?? {};
    expect(o.chainId?.[0]).toBe(WorkOffset.chainId);
    expect(o.target?.[0]).toBe(WorkOffset.target);
    expect(o.workHeader?.[0]).toBe(WorkOffset.workHeader);
    expect(o.creationTime).toEqual([WorkOffset.creationTime, WorkOffset.creationTime + 8]);
    expect(o.nonce).toEqual([WorkOffset.nonce, WorkOffset.nonce + 8]);
  });

  for (const c of cases) {
    it(`${c.name}: nonce, time, PoW and block hash`, () => {
      const w = base64UrlDecode(c.workBase64, "work");
      expect(readWorkNonce(w).toString()).toBe(c.nonce);
      expect(readWorkCreationTime(w)).toBe(c.creationTime);
      const pow = powHashOfWorkHeader(workHeaderOf(w));
      expect(base64UrlEncode(pow)).toBe(c.powHashBase64);
      expect(meetsTarget(pow, workPrefixOf(w).target)).toBe(c.powValid);
      expect(decodeWorkHeader(workHeaderOf(w)).hash).toBe(c.blockHashOfSolvedHeader);
    });
  }

  it("replacing the nonce or the creation time gives the computed variants", () => {
    expect(base64UrlEncode(withWorkNonce(work, 0n))).toBe(nonceZero.workBase64);
    expect(base64UrlEncode(withWorkCreationTime(work, real.creationTime + 1_000_000))).toBe(
      laterTime.workBase64,
    );
    expect(base64UrlEncode(work)).toBe(real.workBase64); // inputs untouched
  });

  it("rejects work bytes of the wrong length", () => {
    for (const f of [
      () => workHeaderOf(work.subarray(1)),
      () => readWorkNonce(new Uint8Array(286)),
      () => withWorkNonce(new Uint8Array(323), 1n),
    ]) {
      try {
        f();
        expect.unreachable();
      } catch (e) {
        expect(isNodeError(e, "ENC_BAD_LENGTH")).toBe(true);
      }
    }
  });
});
