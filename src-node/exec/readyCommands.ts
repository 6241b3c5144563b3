/**
 * Commands this node parsed already (a /send check, a payload it built),
 * by the text a block carries them as: validating the block that holds them
 * then skips parsing `cmd` and reading its contract inputs again. Both are
 * pure functions of that text, so a hit gives what parsing would.
 * Least recently remembered entries go first.
 * @module
 */
import { blockTransactionText } from "./blockTransaction.ts";
import type { ReadyCommand } from "./chainExecutor.ts";

/** As many as the signature cache remembers (crypto/ed25519.ts and verifySignatures.ts). */
const DEFAULT_SIZE = 16_384;

export class ReadyCommands {
  readonly #byText = new Map<string, ReadyCommand>();
  readonly #size: number;

  constructor(size = DEFAULT_SIZE) {
    this.#size = size;
  }

  /** The command whose block form is `text`, when remembered. */
  get(text: string): ReadyCommand | undefined {
    return this.#byText.get(text);
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
