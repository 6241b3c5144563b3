/**
 * `SpvService`: what `/spv` does (reference chainweb-api.md §9.1). It finds
 * the command's result on the best chain of the source chain (the results
 * index), and proves its output up to a header of the target chain
 * (createSpvProof.ts). While the target chain is below the height the proof
 * needs, the request waits for new blocks, bounded by a timeout, and tells
 * its wait listeners the chain and height it waits for (mine on demand mines
 * them, mining/mineOnDemand.ts); closing the service ends every wait.
 * @module
 */

import type { BlockHeader } from "../chain/blockHeader.ts";
import { encodeSpvProof } from "../chain/spvProof.ts";
import { base64UrlDecode } from "../encoding/base64url.ts";
import type { BlockDb } from "../store/blockDb.ts";
import type { ChainExecutor } from "./chainExecutor.ts";
import { createSpvProof } from "./createSpvProof.ts";
import { ExecError, ExecErrorCode, SpvError, SpvErrorCode } from "./errors.ts";

/** How long `/spv` waits for the target chain by default (as /listen: 180 s). */
export const DEFAULT_SPV_TIMEOUT_MS = 180_000;

export type SpvServiceOptions = {
  readonly executor: ChainExecutor;
  readonly blocks: BlockDb;
  readonly timeoutMs?: number | undefined;
};

/**
 * A short description of a body member of any shape for an error text.
 * Never `JSON.stringify` or `String` on the whole value: deeply nested JSON
 * (10,000 arrays) overflows the stack in both, and a huge value would be
 * echoed back in full.
 */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object" && value !== null) return "an object";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 62 ? `${text.slice(0, 60)}…` : text;
}

/** Told the chain and the height a request waits for, when it starts waiting and when that height changes. */
export type SpvWaitListener = (chainId: number, height: number) => void;

type Attempt =
  | { readonly proof: string }
  | { readonly neededHeight: number; readonly height: number };

export class SpvService {
  readonly executor: ChainExecutor;
  readonly blocks: BlockDb;
  readonly timeoutMs: number;
  readonly #waiters = new Set<(e: ExecError) => void>();
  readonly #waitListeners = new Set<SpvWaitListener>();
  #closed = false;

  constructor(options: SpvServiceOptions) {
    this.executor = options.executor;
    this.blocks = options.blocks;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SPV_TIMEOUT_MS;
  }

  /** Calls `listener` whenever a request waits for a chain to reach a height; returns the unsubscribe function. */
  onWait(listener: SpvWaitListener): () => void {
    this.#waitListeners.add(listener);
    return () => this.#waitListeners.delete(listener);
  }

  #tellWaiting(chainId: number, attempt: Attempt): void {
    if ("proof" in attempt) return;
    for (const listener of this.#waitListeners) listener(chainId, attempt.neededHeight);
  }

  /** Ends every waiting request (EXEC_SHUTTING_DOWN); later requests that would wait fail at once. */
  close(): void {
    this.#closed = true;
    const err = new ExecError(
      { code: ExecErrorCode.ShuttingDown },
      "the node is shutting down; ask for the proof again once it is back",
    );
    for (const fail of [...this.#waiters]) fail(err);
    this.#waiters.clear();
  }

  /**
   * The `/spv` proof text (base64url of the proof JSON) of the output of
   * `requestKey` on `sourceChain`, for `targetChainId`.
   * @param signal aborts the wait (the client went away).
   * @throws {SpvError} SPV_BAD_REQUEST_KEY, SPV_BAD_TARGET_CHAIN,
   *   SPV_UNKNOWN_REQUEST_KEY, SPV_UNREACHABLE, SPV_TARGET_NOT_REACHED (after the wait).
   * @throws {ExecError} EXEC_SHUTTING_DOWN when the node closes during the wait.
   */
  proof(
    sourceChain: number,
    requestKey: unknown,
    targetChainId: unknown,
    signal?: AbortSignal,
  ): Promise<string> {
    try {
      this.blocks.requireChain(sourceChain);
      const key = parseSpvRequestKey(requestKey);
      const target = this.#parseTarget(targetChainId);
      const first = this.#attempt(sourceChain, key, target);
      if ("proof" in first) return Promise.resolve(first.proof);
      if (this.#closed)
        throw new ExecError({ code: ExecErrorCode.ShuttingDown }, "the node is shutting down");
      return this.#wait(sourceChain, key, target, first, signal);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  #wait(
    source: number,
    key: string,
    target: number,
    first: Attempt,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const started = Date.now();
      let last = first;
      const done = (): void => {
        clearTimeout(timer);
        unsubscribe();
        this.#waiters.delete(fail);
        signal?.removeEventListener("abort", onAbort);
      };
      const fail = (e: unknown): void => {
        done();
        reject(e);
      };
      const onAbort = (): void =>
        fail(new ExecError({ code: ExecErrorCode.ShuttingDown }, "the client went away"));
      const unsubscribe = this.blocks.onCutChange(({ added }) => {
        if (!added.some((h) => h.chainId === target || h.chainId === source)) return;
        try {
          last = this.#attempt(source, key, target);
        } catch (e) {
          fail(e);
          return;
        }
        if ("proof" in last) {
          done();
          resolve(last.proof);
        } else this.#tellWaiting(target, last);
      });
      const timer = setTimeout(() => {
        const l = last as { neededHeight: number; height: number };
        fail(
          new SpvError(
            {
              code: SpvErrorCode.TargetNotReached,
              targetChainId: target,
              neededHeight: l.neededHeight,
              height: l.height,
              waitedMs: Date.now() - started,
            },
            `SPV target not reachable: target chain not reachable. Chainweb instance is too young (chain ${target} is at height ${l.height}; the proof needs height ${l.neededHeight}; waited ${Math.round((Date.now() - started) / 1000)} s: ask again once the chain is there)`,
          ),
        );
      }, this.timeoutMs);
      this.#waiters.add(fail);
      if (signal?.aborted === true) onAbort();
      else {
        signal?.addEventListener("abort", onAbort, { once: true });
        this.#tellWaiting(target, first);
      }
    });
  }

  #parseTarget(value: unknown): number {
    const text = typeof value === "number" ? String(value) : value;
    const chains = this.blocks.version.chainIds;
    const bad = (why: string): SpvError =>
      new SpvError(
        { code: SpvErrorCode.BadTargetChain, value: shown(value) },
        `targetChainId: ${why}; the chains of ${this.blocks.version.name} are ${chains[0]} … ${chains[chains.length - 1]}`,
      );
    if (typeof text !== "string" || !/^(0|[1-9][0-9]{0,8})$/.test(text))
      throw bad(`expected a chain id ("0", "1", …), got ${shown(value)}`);
    const id = Number(text);
    if (!this.blocks.hasChain(id)) throw bad(`${id} is not a chain of this network`);
    return id;
  }

  #attempt(source: number, key: string, target: number): Attempt {
    this.executor.bestHead(source);
    const found = this.executor.state.result(source, key);
    if (found === undefined)
      throw new SpvError(
        { code: SpvErrorCode.UnknownRequestKey, chainId: source, requestKey: key },
        `Transaction hash not found: ${key} (no block of chain ${source}'s best chain holds it; /spv goes to the chain the command ran on)`,
      );
    const head: BlockHeader = this.executor.bestHead(target);
    const r = createSpvProof(this.blocks, found, head);
    if (r.kind === "wait") return { neededHeight: r.neededHeight, height: head.height };
    return { proof: encodeSpvProof(r.proof) };
  }
}

/**
 * A request key for /spv: 32 bytes of unpadded base64url.
 * @throws {SpvError} SPV_BAD_REQUEST_KEY (the reference's text for a wrong length).
 */
export function parseSpvRequestKey(value: unknown): string {
  const bad = (text: string): SpvError =>
    new SpvError({ code: SpvErrorCode.BadRequestKey, requestKey: shown(value) }, text);
  if (typeof value !== "string")
    throw bad(`requestKey: expected a request key (a string), got ${shown(value)}`);
  let bytes: Uint8Array;
  try {
    bytes = base64UrlDecode(value, "requestKey");
  } catch {
    throw bad(`Request Key ${shown(value)} is not unpadded base64url`);
  }
  if (bytes.length !== 32)
    throw bad(
      `Request Key ${value.length > 62 ? `${value.slice(0, 60)}…` : value} has incorrect hash of length ${bytes.length}`,
    );
  return value;
}
