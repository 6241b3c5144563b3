/**
 * The node's answers about the wallet's stored files (docs/wallet.md): the keystore as stored
 * (`{keystore}`, read on by `src-node/walletFiles/keystoreFile.ts`), a file saved
 * (`{saved: true}`), a keystore replaced with the old one kept aside (`{replaced: true,
 * keptAs}`). These are answers, not file formats (those are `src-node/walletFiles/`'s). Apart
 * from `api.ts` so that `endpoints.ts`, whose entries read with them, does not import the
 * module that calls those entries.
 * @module
 */
import { type Decoded, decode, record, reject, string } from "../../api/decode.ts";

/** The node's answer to a replacement: where it kept the old keystore (null: there was none). */
export function parseReplaced(raw: unknown): Decoded<{ readonly keptAs: string | null }> {
  return decode(raw, (x) => {
    const r = record(x, "answer");
    if (r.replaced !== true) reject("answer.replaced", "true");
    return { keptAs: r.keptAs === null ? null : string(r.keptAs, "answer.keptAs") };
  });
}

/** The stored keystore as it came (`null` before the first wallet), not yet read as a file. */
export function parseKeystoreAnswer(raw: unknown): Decoded<{ readonly keystore: unknown }> {
  return decode(raw, (x) => {
    const r = record(x, "answer");
    if (!("keystore" in r)) reject("answer.keystore", "a keystore or null");
    return { keystore: r.keystore };
  });
}

/** The node stored the file. */
export function parseSaved(raw: unknown): Decoded<{ readonly saved: true }> {
  return decode(raw, (x) => {
    if (record(x, "answer").saved !== true) reject("answer.saved", "true");
    return { saved: true as const };
  });
}
