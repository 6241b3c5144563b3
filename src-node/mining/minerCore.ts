/**
 * The state of one mining thread: a private copy of the work header, its
 * midstate, the target words and the next nonce (two u32 halves, so the hot
 * path never touches BigInt). Thread-agnostic: minerWorker.ts drives it inside
 * a worker, tests drive it in-process.
 * @module
 */
import {
  CREATION_TIME_OFFSET,
  createPowMidstate,
  NONCE_OFFSET,
  readWords256,
  searchMidstate,
  setPowMidstate,
  WORK_HEADER_BYTES,
} from "./blake2sMidstate.ts";
import { MiningError, MiningErrorCode } from "./errors.ts";
import { assertLength, assertNonce } from "./nonceSearch.ts";

const I64_MAX = (1n << 63n) - 1n;
/** Keeps the kernel's counters inside int32. */
const MAX_STEP = 1 << 30;

export class MinerCore {
  readonly #header = new Uint8Array(WORK_HEADER_BYTES);
  readonly #view = new DataView(this.#header.buffer);
  readonly #state = createPowMidstate();
  readonly #target = new Uint32Array(8);
  #lo = 0;
  #hi = 0;
  #hasWork = false;

  /** Takes new work (copied), dropping the old; the search resumes at `startNonce`. */
  setWork(header286: Uint8Array, target32: Uint8Array, startNonce: bigint): void {
    assertLength(header286, WORK_HEADER_BYTES, "header286");
    assertLength(target32, 32, "target32");
    assertNonce(startNonce, "startNonce");
    this.#header.set(header286);
    readWords256(target32, this.#target);
    this.#lo = Number(startNonce & 0xffffffffn);
    this.#hi = Number(startNonce >> 32n);
    setPowMidstate(this.#state, this.#header);
    this.#hasWork = true;
  }

  /** Drops the work; {@link search} then finds nothing. */
  clear(): void {
    this.#hasWork = false;
  }

  get hasWork(): boolean {
    return this.#hasWork;
  }

  /** The creation time (µs since the epoch) currently in the header. */
  get creationTime(): bigint {
    return this.#view.getBigInt64(CREATION_TIME_OFFSET, true);
  }

  /** The next nonce to be tried. */
  get nextNonce(): bigint {
    return (BigInt(this.#hi) << 32n) | BigInt(this.#lo);
  }

  /** Writes a new creation time into the header and recomputes the midstate; the nonce runs on. */
  setCreationTime(micros: bigint): void {
    if (typeof micros !== "bigint" || micros < 0n || micros > I64_MAX) {
      throw new MiningError(
        { code: MiningErrorCode.BadArgument, field: "creationTime", value: String(micros) },
        `creationTime: ${String(micros)} is not a non-negative i64`,
      );
    }
    this.#view.setBigInt64(CREATION_TIME_OFFSET, micros, true);
    setPowMidstate(this.#state, this.#header);
  }

  /**
   * Tries up to `count` nonces from the next one. Returns a copy of the
   * solved 286-byte header (nonce and time set) or null, and how many nonces
   * were hashed. The next search starts after the last nonce tried.
   */
  search(count: number): { header: Uint8Array | null; tried: number } {
    if (!this.#hasWork) return { header: null, tried: 0 };
    if (!Number.isSafeInteger(count) || count < 0) {
      throw new MiningError(
        { code: MiningErrorCode.BadArgument, field: "count", value: String(count) },
        `count: ${String(count)} is not a non-negative safe integer`,
      );
    }
    let tried = 0;
    while (tried < count) {
      const n = Math.min(MAX_STEP, count - tried);
      const i = searchMidstate(this.#state, this.#target, this.#lo, this.#hi, n);
      const step = i < 0 ? n : i;
      const found = i >= 0;
      const next = this.#lo + step;
      this.#lo = next >>> 0;
      if (next > 0xffffffff) this.#hi = (this.#hi + 1) >>> 0;
      if (found) {
        const solved = this.#header.slice();
        const view = new DataView(solved.buffer);
        view.setUint32(NONCE_OFFSET, this.#lo, true);
        view.setUint32(NONCE_OFFSET + 4, this.#hi, true);
        this.#advance();
        return { header: solved, tried: tried + i + 1 };
      }
      tried += n;
    }
    return { header: null, tried };
  }

  #advance(): void {
    this.#lo = (this.#lo + 1) >>> 0;
    if (this.#lo === 0) this.#hi = (this.#hi + 1) >>> 0;
  }
}
