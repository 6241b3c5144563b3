/**
 * The mempool (src-node/mempool/mempool.ts): selection order (gas price,
 * then arrival), idempotent adds, all-or-nothing limits, removal, listeners.
 */
import { describe, expect, it } from "vitest";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import type { ReadyCommand } from "../../src-node/exec/chainExecutor.ts";
import { contractInputOf } from "../../src-node/exec/contractInput.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { Mempool } from "../../src-node/mempool/mempool.ts";
import { signedCommand } from "../support/execChain.ts";

const { parseCommand } = nodeCommands;

function ready(gasPrice: string, nonce: string): ReadyCommand {
  const command = parseCommand(
    JSON.parse(JSON.stringify(signedCommand({ code: "1", gasPrice, nonce }))),
  );
  return { command, input: contractInputOf(command) };
}

describe("[mempool] pending commands", () => {
  it("selects by gas price, then arrival", () => {
    const m = new Mempool();
    const a = ready("0.00000001", "a");
    const b = ready("0.00000002", "b");
    const c = ready("0.00000001", "c");
    const d = ready("0.0000001", "d");
    m.add(0, [a, b]);
    m.add(0, [c, d]);
    expect(m.candidates(0).map((r) => r.command.payload.nonce)).toEqual(["d", "b", "a", "c"]);
    expect(m.candidates(1)).toEqual([]);
  });

  it("takes a pending command again without change, and tells listeners about new ones", () => {
    const m = new Mempool();
    const seen: number[] = [];
    const off = m.onAdded((c) => seen.push(c));
    const a = ready("0.00000001", "a");
    expect(m.add(3, [a, a])).toBe(1);
    expect(m.add(3, [a])).toBe(0);
    expect(m.size(3)).toBe(1);
    expect(m.has(3, a.command.hash)).toBe(true);
    expect(seen).toEqual([3]);
    off();
    m.add(3, [ready("0.00000001", "b")]);
    expect(seen).toEqual([3]);
    m.remove(3, [a.command.hash, "unknown"]);
    expect(m.has(3, a.command.hash)).toBe(false);
    expect(m.size(3)).toBe(1);
  });

  it("refuses a batch that does not fit, taking none of it", () => {
    const m = new Mempool({ limitPerChain: 2 });
    m.add(0, [ready("0.00000001", "a")]);
    let code = "";
    try {
      m.add(0, [ready("0.00000001", "b"), ready("0.00000001", "c")]);
    } catch (e) {
      code = isNodeError(e) ? e.code : "other";
    }
    expect(code).toBe("MEMPOOL_FULL");
    expect(m.size(0)).toBe(1);
    expect(m.add(0, [ready("0.00000001", "b")])).toBe(1);
  });
});
