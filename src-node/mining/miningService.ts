/**
 * The node's side of mining: hands out work, takes solutions, and tells when
 * work is out of date. Both the HTTP mining API (api/routes/mining.ts) and
 * the built-in miner (builtInMiner.ts) go through it.
 *
 * Work (reference chainweb-api.md §5.3, §6.1): pick a chain that can be
 * extended (workSelection.ts), ask the payload provider for the payload,
 * build the child header (chain/newBlockHeader.ts) with creation time = the
 * node's clock, and remember the payload (outstandingWork.ts). The creation
 * time is never at or before the parent's or an adjacent parent's: when the
 * clock has not yet passed them (blocks found within the same clock tick),
 * the service waits until it has, for at most {@link MAX_CLOCK_WAIT_MS}.
 *
 * Solutions (§6.2), checked in this order, each with its own error:
 * 286 bytes (MINING_BAD_WORK) → payload handed out (MINING_UNKNOWN_PAYLOAD)
 * → nothing but creation time and nonce changed (MINING_CHANGED_WORK) →
 * decodes → proof of work ≤ target (MINING_POW_ABOVE_TARGET) → creation time
 * after the parents' (MINING_STALE_CREATION_TIME) and not after the node's
 * clock (MINING_FUTURE_CREATION_TIME) → the block database's full header
 * validation (its ChainError). A valid solution whose parent is no longer
 * the head is stored as a fork block. The work item is forgotten once its
 * solution is stored; failed attempts keep it, so a miner may try again.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import { HeaderOffset, WORK_HEADER_SIZE } from "../chain/blockHeader.ts";
import { decodeWorkHeader, encodeWorkHeader } from "../chain/blockHeaderBinary.ts";
import type { ParentLookup } from "../chain/cutExtension.ts";
import type { MinerInfo } from "../chain/minerData.ts";
import { newBlockHeader } from "../chain/newBlockHeader.ts";
import type { PayloadWithOutputs } from "../chain/payloadWithOutputs.ts";
import { meetsTarget, powHashOfWorkHeader } from "../chain/pow.ts";
import { encodeWorkBytes } from "../chain/workBytes.ts";
import { hash32FromBytes } from "../encoding/hash32.ts";
import { MiningError, MiningErrorCode } from "./errors.ts";
import type { MiningChain } from "./miningChain.ts";
import { OutstandingWork, type WorkItem } from "./outstandingWork.ts";
import { emptyPayloadProvider, type PayloadProvider } from "./payloadProvider.ts";
import { firstChangedByte, workHeaderField } from "./solvedWork.ts";
import { selectWorkPlace } from "./workSelection.ts";
import { WorkUpdates } from "./workUpdates.ts";

/** Longest wait for the clock to pass the newest parent's creation time. */
export const MAX_CLOCK_WAIT_MS = 2000;

export type MiningLog = {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
};

export type MiningServiceOptions = {
  readonly chain: MiningChain;
  /** Default: {@link emptyPayloadProvider}. */
  readonly payloadProvider?: PayloadProvider | undefined;
  /** The node's clock, µs since the UNIX epoch (default: the system clock). */
  readonly clock?: (() => number) | undefined;
  /** Outstanding work items kept (default 1200). */
  readonly workLimit?: number | undefined;
  /** How long an outstanding work item is kept, ms (default 5 min). */
  readonly workTtlMs?: number | undefined;
  /** Uniform in [0, 1); picks the chain when there is no usable suggestion. */
  readonly random?: (() => number) | undefined;
  /** Waits `ms` (default: a timer); tests with a fake clock advance it here. */
  readonly sleep?: ((ms: number) => Promise<void>) | undefined;
  readonly log?: MiningLog | undefined;
  /**
   * How {@link MiningService.accept} stores a solved block (default: the
   * chain's `insertBlock`). The node passes its own `insertBlock`, which
   * executes the block in an execution worker first (node.ts).
   */
  readonly insertBlock?:
    | ((block: {
        readonly header: BlockHeader;
        readonly payload: PayloadWithOutputs;
      }) => Promise<{ readonly status: "inserted" | "known"; readonly cutChanged: boolean }>)
    | undefined;
};

/** A new work item. */
export type Work = {
  /** The 322 work bytes: chain id, target, work header. */
  readonly bytes: Uint8Array;
  readonly header: BlockHeader;
};

/** A stored solution. */
export type SolvedBlock = {
  readonly header: BlockHeader;
  /** `known`: the same block had been stored already. */
  readonly status: "inserted" | "known";
  /** Whether the block moved the best cut (false for a fork block). */
  readonly cutChanged: boolean;
};

export function systemClockMicros(): number {
  return Date.now() * 1000;
}

function timerSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class MiningService {
  readonly chain: MiningChain;
  readonly updates: WorkUpdates;
  readonly outstanding: OutstandingWork;
  readonly #payloadProvider: PayloadProvider;
  readonly #clock: () => number;
  readonly #random: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #log: MiningLog | undefined;
  readonly #insertBlock: MiningServiceOptions["insertBlock"];
  readonly #parentOf: ParentLookup;
  #blocksAccepted = 0;

  constructor(options: MiningServiceOptions) {
    this.chain = options.chain;
    this.#payloadProvider = options.payloadProvider ?? emptyPayloadProvider;
    this.#clock = options.clock ?? systemClockMicros;
    this.#random = options.random ?? Math.random;
    this.#sleep = options.sleep ?? timerSleep;
    this.#log = options.log;
    this.#insertBlock = options.insertBlock;
    this.#parentOf = (h) => this.chain.header(h.parent);
    this.outstanding = new OutstandingWork({
      limit: options.workLimit,
      ttlMs: options.workTtlMs,
      now: () => Math.floor(this.#clock() / 1000),
    });
    this.updates = new WorkUpdates(this.chain, (e) =>
      this.#log?.warn("mining update listener failed", {
        error: e instanceof Error ? e.message : String(e),
      }),
    );
  }

  /** Solutions stored since the service started (fork blocks included). */
  get blocksAccepted(): number {
    return this.#blocksAccepted;
  }

  /** The node's clock, µs. */
  now(): number {
    return this.#clock();
  }

  /**
   * New work for `minerInfo`, on the suggested chain when it can be extended.
   * @throws {MiningError} MINING_BAD_CHAIN (suggestion not a chain of the
   *   network), MINING_NO_WORK (no chain can be extended, or the clock is
   *   behind the newest parent by more than {@link MAX_CLOCK_WAIT_MS}).
   */
  async work(minerInfo: MinerInfo, suggestion?: number): Promise<Work> {
    const version = this.chain.version;
    let clockWaits = 0;
    let stale = 0;
    for (;;) {
      const place = selectWorkPlace(
        this.chain.cut(),
        version,
        this.#parentOf,
        suggestion,
        this.#random,
      );
      if (place === undefined) {
        throw new MiningError(
          { code: MiningErrorCode.NoWork, reason: "no chain can be extended" },
          "no work: no chain of the cut can be extended now; retry later",
        );
      }
      const latest = Math.max(
        place.parent.creationTime,
        ...place.adjacentParents.map((a) => a.creationTime),
      );
      const now = this.#clock();
      if (now <= latest) {
        const waitMs = Math.ceil((latest + 1 - now) / 1000);
        if (waitMs > MAX_CLOCK_WAIT_MS || clockWaits++ >= 3) {
          throw new MiningError(
            { code: MiningErrorCode.NoWork, reason: "clock behind the chain" },
            `no work: the newest parent on chain ${place.chainId} is ${(latest - now) / 1e6} s ahead of this node's clock; retry later`,
          );
        }
        await this.#sleep(waitMs);
        continue;
      }
      const payload = await this.#payloadProvider(place.chainId, place.parent, minerInfo);
      // A block may have landed on this chain while the payload was made: work
      // on the old parent would only make a fork block, so choose again.
      if (this.chain.cut().get(place.chainId)?.hash !== place.parent.hash && stale++ < 8) {
        continue;
      }
      const header = newBlockHeader({
        version,
        parent: place.parent,
        adjacentParents: place.adjacentParents,
        creationTime: now,
        payloadHash: payload.payloadHash,
      });
      this.outstanding.add({
        header,
        workHeader: encodeWorkHeader(header),
        payload,
        minerInfo,
        latestParentTime: latest,
      });
      return { bytes: encodeWorkBytes(header), header };
    }
  }

  /**
   * Checks a solved 286-byte work header and stores the block.
   * @throws {MiningError} see the module comment; {ChainError} when the block
   *   database rejects the header; {EncodingError} for fields out of range.
   */
  submit(solved: Uint8Array): SolvedBlock {
    const { item, header } = this.#checked(solved);
    return this.#stored(solved, header, this.chain.insertBlock({ header, payload: item.payload }));
  }

  /**
   * {@link submit}, storing the block through the `insertBlock` option (the
   * node's executes the block off its event loop first): the built-in miner
   * and `POST /mining/solved` use it.
   */
  async accept(solved: Uint8Array): Promise<SolvedBlock> {
    const { item, header } = this.#checked(solved);
    const block = { header, payload: item.payload };
    const result =
      this.#insertBlock === undefined
        ? this.chain.insertBlock(block)
        : await this.#insertBlock(block);
    return this.#stored(solved, header, result);
  }

  /** The checks of {@link submit}: the work item and the block's header. */
  #checked(solved: Uint8Array): { item: WorkItem; header: BlockHeader } {
    if (!(solved instanceof Uint8Array) || solved.length !== WORK_HEADER_SIZE) {
      const actual = solved instanceof Uint8Array ? solved.length : -1;
      throw new MiningError(
        { code: MiningErrorCode.BadWork, field: "body", expected: WORK_HEADER_SIZE, actual },
        `solved work must be the ${WORK_HEADER_SIZE} work-header bytes, got ${actual} bytes`,
      );
    }
    const item = this.#itemFor(solved);
    const header = decodeWorkHeader(solved);
    if (this.chain.version.checkPow && !meetsTarget(powHashOfWorkHeader(solved), header.target)) {
      throw new MiningError(
        { code: MiningErrorCode.PowAboveTarget, blockHash: header.hash },
        "invalid solved work: the proof-of-work hash is above the target",
      );
    }
    if (header.creationTime <= item.latestParentTime) {
      throw new MiningError(
        {
          code: MiningErrorCode.StaleCreationTime,
          creationTime: header.creationTime,
          latestParent: item.latestParentTime,
        },
        `invalid solved work: creation time ${header.creationTime} µs is not after the parent's and adjacent parents' (latest ${item.latestParentTime} µs)`,
      );
    }
    const now = this.#clock();
    if (header.creationTime > now) {
      throw new MiningError(
        { code: MiningErrorCode.FutureCreationTime, creationTime: header.creationTime, now },
        `invalid solved work: creation time ${header.creationTime} µs is in the future (node clock ${now} µs)`,
      );
    }
    return { item, header };
  }

  #stored(
    solved: Uint8Array,
    header: BlockHeader,
    result: { readonly status: "inserted" | "known"; readonly cutChanged: boolean },
  ): SolvedBlock {
    this.outstanding.remove(solved);
    if (result.status === "inserted") this.#blocksAccepted++;
    this.#log?.info("mined block", {
      chainId: header.chainId,
      height: header.height,
      hash: header.hash,
      fork: !result.cutChanged,
    });
    return { header, status: result.status, cutChanged: result.cutChanged };
  }

  close(): void {
    this.updates.close();
    this.outstanding.clear();
  }

  #itemFor(solved: Uint8Array) {
    const item = this.outstanding.find(solved);
    if (item !== undefined) return item;
    const payloadHash = hash32FromBytes(
      solved.subarray(HeaderOffset.payloadHash, HeaderOffset.payloadHash + 32),
    );
    const [latest] = this.outstanding.withPayload(payloadHash);
    if (latest === undefined) {
      throw new MiningError(
        { code: MiningErrorCode.UnknownPayload, payloadHash },
        `no associated payload: work with payload ${payloadHash} was not handed out by this node, has expired, or was solved already`,
      );
    }
    const offset = firstChangedByte(latest.workHeader, solved);
    const field = workHeaderField(offset);
    throw new MiningError(
      { code: MiningErrorCode.ChangedWork, offset, field },
      `invalid solved work: byte ${offset} (${field}) differs from the work; only the creation time (bytes 8–15) and the nonce (bytes 278–285) may change`,
    );
  }
}
