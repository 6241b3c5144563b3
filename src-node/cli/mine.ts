/**
 * `weft mine --node URL --account ACCOUNT [--public-key KEY…]`: the
 * stand-alone miner (mining/standaloneMiner.ts). It talks to the node only
 * through the HTTP mining API (the node must run with --enable-mining-api),
 * mines in worker threads, prints one line per accepted or refused solution
 * on standard error, and runs until SIGINT/SIGTERM or `--blocks N` accepted
 * solutions; it then prints `accepted N refused M` on standard output.
 * @module
 */
import { isNodeError } from "../errors/nodeError.ts";
import { checkMinerThreads } from "../mining/builtInMiner.ts";
import { minerInfoOf } from "../mining/minerInfo.ts";
import { runStandaloneMiner } from "../mining/standaloneMiner.ts";
import { usageError } from "./errors.ts";
import type { CliIo } from "./io.ts";
import { processStopSignals, type StopSignals } from "./node.ts";
import { readValueFlags } from "./valueFlags.ts";

export const MINE_USAGE = `Usage: weft mine --node URL --account ACCOUNT [options]

Mines blocks for ACCOUNT through a node's mining API (start the node with
--enable-mining-api). Runs until interrupted (Ctrl-C, SIGTERM).

Options:
  --node URL            the node: http://HOST:PORT or its base URL .../ledger/0.0/NETWORK
  --account ACCOUNT     the account that receives the rewards
  --public-key HEX      a public key of the account (repeat, or separate with commas);
                        not needed for a k:<public key> account
  --predicate NAME      keys-all (default), keys-any or keys-2
  --threads N           worker threads (default 1)
  --blocks N            stop after N accepted blocks
  --help                this text
`;

type MineFlags = {
  node?: string;
  account?: string;
  keys: string[];
  predicate?: string;
  threads?: number;
  blocks?: number;
  help: boolean;
};

const VALUE_FLAGS = new Set([
  "--node",
  "--account",
  "--public-key",
  "--predicate",
  "--threads",
  "--blocks",
]);

function positiveInteger(flag: string, text: string): number {
  if (!/^[1-9][0-9]*$/.test(text))
    throw usageError(`${flag}: expected a positive integer, got ${JSON.stringify(text)}`);
  return Number(text);
}

function parseMineFlags(args: readonly string[]): MineFlags {
  const read = readValueFlags(args, VALUE_FLAGS, "mine", new Set(["--public-key"]));
  const flags: MineFlags = { keys: [], help: read.help };
  for (const [name, given] of read.values) {
    for (const value of given) {
      switch (name) {
        case "--node":
          flags.node = value;
          break;
        case "--account":
          flags.account = value;
          break;
        case "--public-key":
          flags.keys.push(
            ...value
              .split(",")
              .map((k) => k.trim())
              .filter((k) => k !== ""),
          );
          break;
        case "--predicate":
          flags.predicate = value;
          break;
        case "--threads":
          flags.threads = checkMinerThreads(positiveInteger(name, value));
          break;
        case "--blocks":
          flags.blocks = positiveInteger(name, value);
          break;
      }
    }
  }
  return flags;
}

export async function mineCommand(
  args: string[],
  io: CliIo,
  signals: StopSignals = processStopSignals(),
): Promise<number> {
  const abort = new AbortController();
  const unsubscribe = signals.onStop((signal) => {
    io.stderr.write(`weft mine: ${signal} received, stopping\n`);
    abort.abort();
  });
  try {
    const flags = parseMineFlags(args);
    if (flags.help) {
      io.stdout.write(MINE_USAGE);
      return 0;
    }
    if (flags.node === undefined) throw usageError("--node: required (e.g. http://127.0.0.1:1848)");
    if (flags.account === undefined) throw usageError("--account: required");
    let minerInfo: ReturnType<typeof minerInfoOf>;
    try {
      minerInfo = minerInfoOf(flags.account, flags.keys, flags.predicate);
    } catch (e) {
      if (isNodeError(e)) throw usageError(e.message);
      throw e;
    }
    io.stderr.write(
      `weft mine: mining for ${minerInfo.account} through ${flags.node} with ${flags.threads ?? 1} thread(s)\n`,
    );
    const result = await runStandaloneMiner({
      node: flags.node,
      minerInfo,
      threads: flags.threads,
      maxBlocks: flags.blocks,
      signal: abort.signal,
      log: (line) => io.stderr.write(`weft mine: ${line}\n`),
    });
    io.stdout.write(`accepted ${result.accepted} refused ${result.refused}\n`);
    return 0;
  } catch (e) {
    if (isNodeError(e)) {
      io.stderr.write(`weft mine: ${e.message}\n`);
      return e.code === "CLI_USAGE" ? 2 : 1;
    }
    throw e;
  } finally {
    unsubscribe();
  }
}
