/**
 * What "Import a key" accepts: a public key and a secret seed as 64 hex digits each, or the
 * content of a `weft -g` key file (`public: <hex>` and `secret: <hex>` lines, docs/cli.md).
 * The secret must give the public key: a pasted pair that does not match is refused.
 * @module
 */
import { commandModel } from "../../../../../src-node/command/commandModel.ts";
import type { Result } from "../../../../../src-node/errors/result.ts";

export type ImportedPair = { readonly publicKey: string; readonly secretKey: string };

const HEX64 = /^[0-9a-fA-F]{64}$/;

/** The key file's lines, or null when `text` is not one. */
function keyFileOf(text: string): { publicKey: string; secretKey: string } | null {
  const pub = /^\s*public:\s*"?([0-9a-fA-F]{64})"?\s*$/m.exec(text);
  const sec = /^\s*secret:\s*"?([0-9a-fA-F]{64})"?\s*$/m.exec(text);
  return pub?.[1] !== undefined && sec?.[1] !== undefined
    ? { publicKey: pub[1], secretKey: sec[1] }
    : null;
}

/**
 * Parses the form: `keyFile` when given, else `publicKey` and `secretKey`.
 * Resolves to the pair (lower-case hex) or a sentence naming what is wrong.
 */
export function parseImportedKey(input: {
  readonly keyFile: string;
  readonly publicKey: string;
  readonly secretKey: string;
}): Result<ImportedPair> {
  let publicKey: string;
  let secretKey: string;
  if (input.keyFile.trim() !== "") {
    const f = keyFileOf(input.keyFile);
    if (f === null) {
      return {
        ok: false,
        error:
          "The key file needs a line “public: <64 hex digits>” and a line “secret: <64 hex digits>”.",
      };
    }
    ({ publicKey, secretKey } = f);
  } else {
    publicKey = input.publicKey.trim();
    secretKey = input.secretKey.trim();
    if (!HEX64.test(publicKey)) return { ok: false, error: "Public key: expected 64 hex digits." };
    if (!HEX64.test(secretKey)) return { ok: false, error: "Secret key: expected 64 hex digits." };
  }
  publicKey = publicKey.toLowerCase();
  secretKey = secretKey.toLowerCase();
  if (commandModel.publicKeyOf(secretKey) !== publicKey) {
    return { ok: false, error: "The secret key does not belong to this public key." };
  }
  return { ok: true, value: { publicKey, secretKey } };
}
