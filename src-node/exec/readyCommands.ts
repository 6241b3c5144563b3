/**
 * Commands this node parsed already (a /send check, a payload it built),
 * by the text a block carries them as: validating the block that holds them
 * then skips parsing `cmd` and reading its contract inputs again. Both are
 * pure functions of that text, so a hit gives what parsing would.
 * Least recently used entries go first.
 *
 * Bounded by count: an entry (a coin transfer's parsed command and contract
 * input) holds about 6.4 KB of heap, and the node keeps one cache on its
 * thread and one per execution worker. At 16,384 entries each that was
 * about 100 MB a cache, filled in some 14 minutes at 20 transfers a second —
 * most of the growth issue 23 measured (`npm run bench -- soak`). 4,096
 * still covers a mempool's worth of candidates between /send and the block.
 * @module
 */
import { blockTransactionText } from "./blockTransaction.ts";
import type { ReadyCommand } from "./chainExecutor.ts";

/** About 26 MB of parsed coin transfers. */
export const READY_COMMANDS_SIZE = 4096;

export class ReadyCommands {
  readonly #byText = new Map<string, ReadyCommand>();
  readonly #size: number;

  constructor(size = READY_COMMANDS_SIZE) {
    this.#size = size;
  }

  /** The command whose block form is `text`, when remembered. */
  get(text: string): ReadyCommand | undefined {
    const hit = this.#byText.get(text);
    if (hit !== undefined) {
      // Most recently used last: candidates offered to every payload stay.
      this.#byText.delete(text);
      this.#byText.set(text, hit);
    }
    return hit;
  }

  remember(ready: ReadyCommand): void {
    const text = blockTransactionText(ready.command);
    if (this.#byText.has(text)) return;
    if (this.#byText.size >= this.#size)
      this.#byText.delete(this.#byText.keys().next().value as string);
    this.#byText.set(text, ready);
  }

  get size(): number {
    return this.#byText.size;
  }
}
