import { describe, expect, it } from "vitest";
import { blake2b256, blake2s256 } from "../../src-node/crypto/blake2.ts";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import { loadVectors } from "../support/vectors.ts";

type RequestKeyCase = {
  name: string;
  cmd: string;
  requestKey: string;
  blake2b?: string;
  [k: string]: unknown;
};

const file = loadVectors<RequestKeyCase>("request-keys.json");

describe("[crypto] request keys: Blake2s-256 of cmd, unpadded base64url", () => {
  it("has cases", () => expect(file.cases.length).toBeGreaterThan(3));
  for (const c of file.cases) {
    it(c.name, () => {
      const key = base64UrlEncode(blake2s256(c.cmd));
      expect(key).toHaveLength(43);
      expect(key, c.name).toBe(c.requestKey);
      if (typeof c.blake2b === "string")
        expect(base64UrlEncode(blake2b256(c.cmd)), c.name).toBe(c.blake2b);
    });
  }
});
