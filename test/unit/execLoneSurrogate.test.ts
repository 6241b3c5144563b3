/**
 * Text with a lone surrogate (legal in JSON as "\ud800", with no UTF-8 form)
 * in a command's code, and so in its error message: the block's outputs are
 * JSON text that reads back from the payload's bytes unchanged, so the node
 * accepts the block it built. (Written raw, the surrogate became U+FFFD in
 * the bytes and the node refused its own block: EXEC_OUTPUT_MISMATCH.)
 */
import { afterAll, describe, expect, it } from "vitest";
import { pactValueToJsonText } from "../../src-node/contract/values/json.ts";
import { contractInputOf } from "../../src-node/exec/contractInput.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { openExecChain, signedCommand } from "../support/execChain.ts";

const { parseCommand } = nodeCommands;

describe("[exec] lone surrogates in outputs", () => {
  const x = openExecChain();
  afterAll(() => x.close());

  it("escape a lone surrogate in JSON text as JSON.stringify does, and keep pairs", () => {
    for (const s of ["\ud800", "a\udc00b", "\ud83c\udf89", "x\ud83c", "\udf89\ud83c"])
      expect(pactValueToJsonText({ kind: "string", value: s }), JSON.stringify(s)).toBe(
        JSON.stringify(s),
      );
  });

  it("a block whose command fails on a lone surrogate is accepted by the node that built it", () => {
    const cmd = signedCommand({ code: "\ud800" });
    const command = parseCommand(JSON.parse(JSON.stringify(cmd)));
    const block = x.nextBlock(0, [{ command, input: contractInputOf(command) }]);
    expect(block.payload.transactions.length).toBe(1);
    expect(() => x.blocks.insertBlock(block)).not.toThrow();
    const out = JSON.parse(x.executor.poll(0, [cmd.hash], 0).get(cmd.hash) ?? "null");
    expect(out.result.status).toBe("failure");
    expect(out.result.error.message).toContain("\ud800");
  });
});
