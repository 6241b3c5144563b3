/**
 * writeBase64Url (encoding/base64UrlInto.ts) writes the same text as
 * Node's base64url encoder, for every length's remainder and at any offset,
 * and exactly base64UrlLength bytes of it.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { base64UrlLength, writeBase64Url } from "../../src-node/encoding/base64UrlInto.ts";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";

describe("[encoding] base64url written into a buffer", () => {
  it("equals base64UrlEncode for lengths 0 to 400 at any offset, writing nothing else", () => {
    for (let n = 0; n <= 400; n++) {
      const src = randomBytes(n);
      const at = n % 7;
      const out = Buffer.alloc(at + base64UrlLength(n) + 2, 0x2a);
      const end = writeBase64Url(src, out, at);
      expect(end - at).toBe(base64UrlLength(n));
      expect(out.toString("latin1", at, end)).toBe(base64UrlEncode(src));
      expect(out.subarray(0, at).every((b) => b === 0x2a)).toBe(true);
      expect(out.subarray(end).every((b) => b === 0x2a)).toBe(true);
    }
  });

  it("encodes every byte value in every position of a group", () => {
    for (let b = 0; b < 256; b++) {
      for (const src of [[b], [b, 255 - b], [b, 0, 255], [0, b, 255], [255, 0, b]]) {
        const bytes = Uint8Array.from(src);
        const out = Buffer.alloc(base64UrlLength(bytes.length));
        writeBase64Url(bytes, out, 0);
        expect(out.toString("latin1")).toBe(base64UrlEncode(bytes));
      }
    }
  });
});
