/**
 * ReadyCommands (src-node/exec/readyCommands.ts): commands remembered by the
 * text a block carries them as, oldest forgotten first; a block's bytes that
 * decode to that text find the command without parsing it again.
 */
import { describe, expect, it } from "vitest";
import {
  blockTransactionBytes,
  blockTransactionTextOf,
  parseBlockTransaction,
} from "../../src-node/exec/blockTransaction.ts";
import { contractInputOf } from "../../src-node/exec/contractInput.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { READY_COMMANDS_SIZE, ReadyCommands } from "../../src-node/exec/readyCommands.ts";
import { signedCommand } from "../support/execChain.ts";

const { parseCommand } = nodeCommands;

function ready(code: string) {
  const command = parseCommand(JSON.parse(JSON.stringify(signedCommand({ code }))));
  return { command, input: contractInputOf(command) };
}

describe("[exec] ReadyCommands", () => {
  it("finds a remembered command by its block text, equal to what parsing gives", () => {
    const cache = new ReadyCommands();
    const r = ready("(+ 1 2)");
    cache.remember(r);
    const bytes = blockTransactionBytes(r.command);
    const text = blockTransactionTextOf(bytes, "transactions[0]");
    expect(cache.get(text)).toBe(r);
    expect(cache.get(text)?.command).toEqual(parseBlockTransaction(bytes, "transactions[0]"));
    // Other text (the same command written with a client's extra fields) is not found.
    expect(cache.get(JSON.stringify({ ...JSON.parse(text), extra: 1 }))).toBeUndefined();
  });

  it("forgets the oldest entries beyond its size", () => {
    const cache = new ReadyCommands(2);
    const [a, b, c] = [ready("1"), ready("2"), ready("3")];
    for (const r of [a, b, c]) cache.remember(r);
    const text = (r: typeof a) => blockTransactionTextOf(blockTransactionBytes(r.command), "t");
    expect(cache.size).toBe(2);
    expect(cache.get(text(a))).toBeUndefined();
    expect(cache.get(text(b))).toBe(b);
    expect(cache.get(text(c))).toBe(c);
  });

  it("forgets the least recently used first", () => {
    const cache = new ReadyCommands(2);
    const [a, b, c] = [ready("1"), ready("2"), ready("3")];
    const text = (r: typeof a) => blockTransactionTextOf(blockTransactionBytes(r.command), "t");
    cache.remember(a);
    cache.remember(b);
    expect(cache.get(text(a))).toBe(a);
    cache.remember(c);
    expect(cache.get(text(b))).toBeUndefined();
    expect(cache.get(text(a))).toBe(a);
    expect(cache.get(text(c))).toBe(c);
  });

  it("never holds more than its default size after many inserts", () => {
    const cache = new ReadyCommands();
    const r = ready("(+ 1 2)");
    for (let i = 0; i < READY_COMMANDS_SIZE + 500; i++) {
      // Distinct block texts without signing each: the text carries the hash.
      cache.remember({ command: { ...r.command, hash: `h${i}` }, input: r.input });
    }
    expect(cache.size).toBe(READY_COMMANDS_SIZE);
  });

  it("refuses bytes that are not UTF-8 (CMD_BAD_JSON)", () => {
    expect(() => blockTransactionTextOf(new Uint8Array([0xff, 0xfe]), "transactions[1]")).toThrow(
      /transactions\[1\]: not UTF-8 JSON/,
    );
  });
});
