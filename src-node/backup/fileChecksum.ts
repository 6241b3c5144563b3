/**
 * SHA-256 and size of a file, read as a stream so that hashing a large
 * database never holds the event loop for long.
 * @module
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import type { FileHandle } from "node:fs/promises";

export type FileChecksum = { readonly sha256: string; readonly bytes: number };

/**
 * @param file a path, or a file opened already (read from its start, then closed).
 * @param between called between chunks; a throw stops the reading (a job being stopped).
 * @throws the file-system error when the file cannot be read.
 */
export async function fileChecksum(
  file: string | FileHandle,
  between?: () => void,
): Promise<FileChecksum> {
  const hash = createHash("sha256");
  let bytes = 0;
  const options = { highWaterMark: 1 << 20 };
  const stream =
    typeof file === "string"
      ? createReadStream(file, options)
      : file.createReadStream({ ...options, start: 0 });
  for await (const chunk of stream) {
    between?.();
    const b = chunk as Buffer;
    bytes += b.length;
    hash.update(b);
  }
  return { sha256: hash.digest("hex"), bytes };
}
