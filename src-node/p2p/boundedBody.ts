/**
 * Reads an answer from a peer within a size limit fitting what it holds (a
 * cut, a page of hashes or blocks; peerClient.ts): the declared
 * `content-length` is checked first and the bytes are counted while they
 * stream, so a peer answering with hundreds of megabytes costs this node at
 * most the limit, never the whole body. Past the limit the read stops and
 * the caller drops the connection.
 * @module
 */

/** The body went past its limit (nothing more is read). */
export class BodyTooLarge extends Error {
  readonly limit: number;
  constructor(limit: number, what: string) {
    super(`${what} exceeds ${limit} bytes`);
    this.limit = limit;
  }
}

/**
 * The body's bytes as UTF-8 text, at most `limit` bytes.
 * @throws {BodyTooLarge} when the body declares or sends more (the stream is cancelled).
 */
export async function readBoundedText(res: Response, limit: number, what: string): Promise<string> {
  const declared = Number(res.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await res.body?.cancel().catch(() => undefined);
    throw new BodyTooLarge(limit, `${what} (declared ${declared} bytes)`);
  }
  const body = res.body;
  if (body === null) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge(limit, what);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString("utf8");
}
