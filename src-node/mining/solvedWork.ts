/**
 * Comparing a solved work header with the work handed out: a miner may
 * change only the creation time (bytes 8–15) and the nonce (bytes 278–285).
 * @module
 */
import { HeaderOffset, WORK_HEADER_SIZE } from "../chain/blockHeader.ts";

/** The header field that holds byte `offset` of a 286-byte work header. */
export function workHeaderField(offset: number): string {
  let field = "featureFlags";
  for (const [name, start] of Object.entries(HeaderOffset)) {
    if (start <= offset) field = name;
  }
  return field;
}

/** True for the bytes a miner may change. */
export function isMutableWorkByte(offset: number): boolean {
  return (
    (offset >= HeaderOffset.creationTime && offset < HeaderOffset.creationTime + 8) ||
    (offset >= HeaderOffset.nonce && offset < WORK_HEADER_SIZE)
  );
}

/** The first byte, other than creation time and nonce, where `solved` differs from `work`; -1 if none. */
export function firstChangedByte(work: Uint8Array, solved: Uint8Array): number {
  const n = Math.min(work.length, solved.length);
  for (let i = 0; i < n; i++) {
    if (!isMutableWorkByte(i) && work[i] !== solved[i]) return i;
  }
  return work.length === solved.length ? -1 : n;
}
