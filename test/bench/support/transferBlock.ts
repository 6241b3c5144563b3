/**
 * Blocks' worth of signed coin transfers among sender00…sender09, ready for
 * a payload (the exec and storage benchmarks).
 */
import type { ReadyCommand } from "../../../src-node/exec/chainExecutor.ts";
import { contractInputOf } from "../../../src-node/exec/contractInput.ts";
import { nodeCommands } from "../../../src-node/exec/nodeCommands.ts";
import { signedCommand, transferCaps } from "../../support/execChain.ts";

/** Transfers per block: the block gas limit (150,000) over each transfer's gas limit (600). */
export const PER_BLOCK = 250;

export function ready(cmd: ReturnType<typeof signedCommand>): ReadyCommand {
  const command = nodeCommands.parseCommand(JSON.parse(JSON.stringify(cmd)));
  return { command, input: contractInputOf(command) };
}

/** A block's worth of coin transfers on `chainId` (block `b`, nonces tagged). */
export function transferBlock(chainId: number, b: number, tag: string): ReadyCommand[] {
  const candidates: ReadyCommand[] = [];
  for (let i = 0; i < PER_BLOCK; i++) {
    const from = i % 9;
    const to = (from + 1 + (b % 8)) % 9;
    const sender = `sender0${from}`;
    const receiver = `sender0${to === from ? 9 : to}`;
    candidates.push(
      ready(
        signedCommand({
          code: `(coin.transfer "${sender}" "${receiver}" 0.01)`,
          sender,
          chainId,
          gasLimit: 600,
          signers: [{ key: from, caps: transferCaps(sender, receiver, "0.01") }],
          nonce: `bench-${tag}-${b}-${i}`,
        }),
      ),
    );
  }
  return candidates;
}
