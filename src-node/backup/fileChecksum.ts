/**
 * SHA-256 and size of a file, read as a stream so that hashing a large
 * database never holds the event loop for long.
 * @module
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

export type FileChecksum = { readonly sha256: string; readonly bytes: number };

/**
 * @param between called between chunks; a throw stops the reading (a job being stopped).
 * @throws the file-system error when the file cannot be read.
 */
export async function fileChecksum(path: string, between?: () => void): Promise<FileChecksum> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    between?.();
    const b = chunk as Buffer;
    bytes += b.length;
    hash.update(b);
  }
  return { sha256: hash.digest("hex"), bytes };
}
