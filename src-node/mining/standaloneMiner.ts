/**
 * The stand-alone miner (`weft mine`): a second, independent client of the
 * mining API that uses nothing but HTTP. It asks the node for work
 * (`GET /mining/work` with the miner information), mines it in worker threads
 * (workerPool.ts), submits solutions (`POST /mining/solved`), and listens to
 * `GET /mining/updates` for the chains it has mined on, switching to new work
 * as soon as its chain's work goes out of date. Update streams that the node
 * ends are opened again; failed requests are retried after a pause.
 *
 * `node` is the node's origin (`http://127.0.0.1:1848`; the base URL is then
 * read from `/info`) or its base URL (`…/ledger/0.0/development`).
 * @module
 */
import type { MinerInfo } from "../chain/minerData.ts";
import type { MinerPool } from "./builtInMiner.ts";
import { MiningError, MiningErrorCode } from "./errors.ts";
import { minerInfoBody } from "./minerInfo.ts";
import { type EventStreamHandle, exchange, openEventStream } from "./miningHttp.ts";
import {
  type MiningSolution,
  WORK_BYTES,
  WorkerPool,
  type WorkerPoolOptions,
} from "./workerPool.ts";

export type StandaloneMinerOptions = {
  /** The node's origin or base URL. */
  readonly node: string;
  readonly minerInfo: MinerInfo;
  /** Worker threads (default 1). */
  readonly threads?: number | undefined;
  /**
   * Stop once this many solutions were accepted (default: run until `signal`).
   * Never more: a solution found while enough are already being submitted is dropped.
   */
  readonly maxBlocks?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Progress lines (accepted and refused solutions, reconnects). */
  readonly log?: ((line: string) => void) | undefined;
  /** Pause before retrying a failed request or reopening a stream, ms (default 1000). */
  readonly retryMs?: number | undefined;
  /** Creates the thread pool (default: a {@link WorkerPool}). */
  readonly createPool?: ((options: WorkerPoolOptions) => MinerPool) | undefined;
};

export type StandaloneMinerResult = {
  /** Solutions the node accepted (204). */
  readonly accepted: number;
  /** Solutions the node refused (stale work and the like). */
  readonly refused: number;
};

/**
 * `{base_url}` of the node: `node` itself when it names a `/ledger/…` path,
 * otherwise built from the node's `/info`.
 * @throws {MiningError} MINING_NODE_REQUEST_FAILED.
 */
export async function resolveBaseUrl(node: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(node);
  } catch {
    throw new MiningError(
      { code: MiningErrorCode.NodeRequestFailed, url: node, status: 0, reason: "not a URL" },
      `${node}: not a URL (expected e.g. http://127.0.0.1:1848)`,
    );
  }
  const path = url.pathname.replace(/\/+$/, "");
  if (path.includes("/ledger/")) return `${url.origin}${path}`;
  const infoUrl = `${url.origin}${path}/info`;
  const reply = await exchange(infoUrl, { method: "GET" });
  let info: unknown;
  try {
    info = reply.status === 200 ? JSON.parse(reply.body.toString("utf8")) : undefined;
  } catch {
    info = undefined;
  }
  const o = (typeof info === "object" && info !== null ? info : {}) as Record<string, unknown>;
  if (typeof o.nodeVersion !== "string" || typeof o.nodeApiVersion !== "string") {
    throw new MiningError(
      {
        code: MiningErrorCode.NodeRequestFailed,
        url: infoUrl,
        status: reply.status,
        reason: "no node information",
      },
      `${infoUrl}: HTTP ${reply.status}: not a node's /info (give the base URL instead)`,
    );
  }
  return `${url.origin}/ledger/${o.nodeApiVersion}/${o.nodeVersion}`;
}

function replyText(body: Buffer): string {
  return body.toString("utf8").trim();
}

/**
 * Mines until `maxBlocks` solutions were accepted or `signal` aborts.
 * @throws {MiningError} MINING_NODE_REQUEST_FAILED when the node cannot be
 *   found at first; MINING_WORKER_FAILED when the threads do not start.
 */
export async function runStandaloneMiner(
  options: StandaloneMinerOptions,
): Promise<StandaloneMinerResult> {
  const base = await resolveBaseUrl(options.node);
  const miner = new StandaloneMiner(base, options);
  return miner.run();
}

type Current = { readonly workId: string; readonly chainId: number };

class StandaloneMiner {
  readonly #base: string;
  readonly #options: StandaloneMinerOptions;
  readonly #workBody: string;
  readonly #retryMs: number;
  readonly #log: (line: string) => void;
  readonly #streams = new Map<number, EventStreamHandle>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #pool: MinerPool | undefined;
  #current: Current | undefined;
  #seq = 0;
  #fetching = false;
  #fetchAgain = false;
  /** The chain the next fetch asks for, if any. */
  #suggestedChain: number | undefined;
  #accepted = 0;
  #refused = 0;
  /** Solutions posted and not yet answered; with `#accepted` they bound `maxBlocks`. */
  #inFlight = 0;
  #finished = false;
  #finish: () => void = () => undefined;
  #fail: (e: unknown) => void = () => undefined;

  constructor(base: string, options: StandaloneMinerOptions) {
    this.#base = base;
    this.#options = options;
    this.#workBody = minerInfoBody(options.minerInfo);
    this.#retryMs = options.retryMs ?? 1000;
    this.#log = options.log ?? (() => undefined);
  }

  async run(): Promise<StandaloneMinerResult> {
    const create = this.#options.createPool ?? ((o: WorkerPoolOptions) => new WorkerPool(o));
    const pool = create({
      threads: this.#options.threads,
      onSolution: (s) => void this.#submit(s),
      onError: (e) => {
        this.#log(`miner thread problem: ${e.message}`);
        if (e.code === MiningErrorCode.WorkerFailed) this.#fail(e);
      },
    });
    this.#pool = pool;
    const done = new Promise<void>((resolve, reject) => {
      this.#finish = resolve;
      this.#fail = reject;
    });
    const signal = this.#options.signal;
    const onAbort = () => this.#finish();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      if (signal?.aborted !== true) {
        await pool.start();
        this.#fetchWork();
        await done;
      }
    } finally {
      this.#finished = true;
      signal?.removeEventListener("abort", onAbort);
      for (const t of this.#timers) clearTimeout(t);
      for (const s of this.#streams.values()) s.close();
      this.#streams.clear();
      await pool.close();
    }
    return { accepted: this.#accepted, refused: this.#refused };
  }

  #later(ms: number, f: () => void): void {
    const t = setTimeout(() => {
      this.#timers.delete(t);
      if (!this.#finished) f();
    }, ms);
    this.#timers.add(t);
  }

  /**
   * Gets new work (from `chainId` when given: a refresh of the current
   * chain) and hands it to the threads; requests made meanwhile are merged.
   */
  #fetchWork(chainId?: number): void {
    if (this.#finished) return;
    this.#suggestedChain = chainId;
    if (this.#fetching) {
      this.#fetchAgain = true;
      return;
    }
    this.#fetching = true;
    void this.#fetchLoop().finally(() => {
      this.#fetching = false;
    });
  }

  async #fetchLoop(): Promise<void> {
    do {
      this.#fetchAgain = false;
      if (this.#finished) return;
      const suggested = this.#suggestedChain;
      this.#suggestedChain = undefined;
      const url = `${this.#base}/mining/work${suggested === undefined ? "" : `?chain=${suggested}`}`;
      try {
        const reply = await exchange(url, {
          method: "GET",
          body: this.#workBody,
          contentType: "application/json",
        });
        if (this.#finished) return;
        if (reply.status !== 200 || reply.body.length !== WORK_BYTES) {
          this.#log(`no work: HTTP ${reply.status}: ${replyText(reply.body)}`);
          if (reply.status === 400) {
            // The node refuses this miner's information: retrying cannot help.
            this.#fail(
              new MiningError(
                {
                  code: MiningErrorCode.NodeRequestFailed,
                  url,
                  status: reply.status,
                  reason: replyText(reply.body),
                },
                `${url}: HTTP ${reply.status}: ${replyText(reply.body)}`,
              ),
            );
            return;
          }
          this.#later(this.#retryMs, () => this.#fetchWork());
          return;
        }
        const work = new Uint8Array(reply.body);
        const chainId = reply.body.readUInt32LE(0);
        const workId = String(++this.#seq);
        this.#current = { workId, chainId };
        this.#watch(chainId);
        this.#pool?.setWork(workId, work);
      } catch (e) {
        this.#log(`no work: ${e instanceof Error ? e.message : String(e)}`);
        this.#later(this.#retryMs, () => this.#fetchWork());
        return;
      }
    } while (this.#fetchAgain);
  }

  async #submit(solution: MiningSolution): Promise<void> {
    if (this.#finished || solution.workId !== this.#current?.workId) return;
    const chainId = this.#current.chainId;
    const max = this.#options.maxBlocks;
    if (max !== undefined && this.#accepted + this.#inFlight >= max) return;
    this.#inFlight++;
    try {
      const reply = await exchange(`${this.#base}/mining/solved`, {
        method: "POST",
        body: solution.header,
        contentType: "application/octet-stream",
      });
      if (reply.status === 204 || reply.status === 200) {
        this.#accepted++;
        this.#log(`block accepted on chain ${chainId} (${this.#accepted} so far)`);
        if (max !== undefined && this.#accepted >= max) {
          this.#finish();
          return;
        }
      } else {
        this.#refused++;
        this.#log(`solution refused: HTTP ${reply.status}: ${replyText(reply.body)}`);
      }
    } catch (e) {
      this.#log(`solution not delivered: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.#inFlight--;
    }
    this.#fetchWork();
  }

  /** Keeps an update stream open for `chainId`. */
  #watch(chainId: number): void {
    if (this.#finished || this.#streams.has(chainId)) return;
    const body = new Uint8Array(4);
    new DataView(body.buffer).setUint32(0, chainId, true);
    const stream = openEventStream(`${this.#base}/mining/updates`, body, {
      // Work fetched before the stream opened may be out of date already.
      onOpen: () => this.#outdated(chainId),
      onEvent: (name) => {
        // New Cut: the work is out of date; Refreshed Block: new work on this
        // chain would hold the commands that just arrived.
        if (name === "New Cut") this.#outdated(chainId);
        else if (name === "Refreshed Block" && this.#current?.chainId === chainId)
          this.#fetchWork(chainId);
      },
      onClose: (error) => {
        this.#streams.delete(chainId);
        if (error !== undefined) this.#log(`update stream of chain ${chainId}: ${error.message}`);
        // The node ends streams from time to time; open it again while mining there.
        this.#later(error === undefined ? 0 : this.#retryMs, () => {
          if (this.#current?.chainId === chainId) this.#watch(chainId);
        });
      },
    });
    this.#streams.set(chainId, stream);
  }

  #outdated(chainId: number): void {
    if (this.#current?.chainId === chainId) this.#fetchWork();
  }
}
