/**
 * `weft node`: runs a node until SIGINT or SIGTERM. Options come from flags
 * and an optional YAML file (`--config`; flags win), see
 * src-node/config/parseNodeFlags.ts and docs/node.md. Prints the base URL on
 * standard output once the node listens (one line, for scripts), progress and
 * problems on standard error (with the entity's public key other nodes pin, and
 * the one-time address that opens the app in a browser, api/appCodes.ts). On a stop signal it closes the server and the
 * databases before exiting with 0; a second signal ends the process at once
 * (SQLite's write-ahead log keeps the files consistent either way).
 * @module
 */

import { ConfigErrorCode } from "../config/errors.ts";
import { loadConfigFile } from "../config/loadConfigFile.ts";
import { mergeNodeOptions } from "../config/nodeOptions.ts";
import { nodeUsage } from "../config/nodeUsage.ts";
import { parseNodeFlags } from "../config/parseNodeFlags.ts";
import { isNodeError } from "../errors/nodeError.ts";
import { createNode, type NodeLogger, portInUse } from "../node.ts";
import type { CliIo } from "./io.ts";

/** Where stop requests come from (the process's signals, or a test). */
export type StopSignals = {
  /** Calls `callback` once, on the first stop request; returns an unsubscribe function. */
  onStop(callback: (signal: string) => void): () => void;
};

/** SIGINT and SIGTERM of this process (each handled once; a second one ends the process). */
export function processStopSignals(): StopSignals {
  return {
    onStop(callback) {
      const handler = (signal: NodeJS.Signals) => {
        process.off("SIGINT", handler);
        process.off("SIGTERM", handler);
        callback(signal);
      };
      process.once("SIGINT", handler);
      process.once("SIGTERM", handler);
      return () => {
        process.off("SIGINT", handler);
        process.off("SIGTERM", handler);
      };
    },
  };
}

/** `weft node --help`: every flag of the option table (config/nodeUsage.ts). */
export const NODE_USAGE = nodeUsage();

function stderrLogger(io: CliIo): NodeLogger {
  const line = (level: string, message: string, fields?: Record<string, unknown>) =>
    io.stderr.write(
      `${level}: ${message}${fields === undefined ? "" : ` ${JSON.stringify(fields)}`}\n`,
    );
  return {
    // Peer connections, bans and catching-up progress are what a node operator watches.
    info: (m, f) => {
      if (m.startsWith("p2p: ")) line("info", m, f);
    },
    warn: (m, f) => line("warning", m, f),
    error: (m, f) => line("error", m, f),
  };
}

export async function nodeCommand(
  args: string[],
  io: CliIo,
  signals: StopSignals = processStopSignals(),
): Promise<number> {
  let stopRequested: string | undefined;
  let wake: (() => void) | undefined;
  const unsubscribe = signals.onStop((signal) => {
    stopRequested = signal;
    wake?.();
  });
  try {
    const flags = parseNodeFlags(args);
    if (flags.help) {
      io.stdout.write(NODE_USAGE);
      return 0;
    }
    const fromFile = flags.configFile === undefined ? {} : loadConfigFile(flags.configFile);
    const node = await createNode({
      ...mergeNodeOptions(fromFile, flags.options),
      logger: stderrLogger(io),
    });
    io.stderr.write(`weft node: network ${node.version.name}, data in ${node.options.dataDir}\n`);
    // The one-time address: it opens the app once in a browser (api/appCodes.ts).
    io.stderr.write(`weft node: UI ${node.appCodeUrl()} (opens the app once in a browser)\n`);
    io.stderr.write(
      `weft node: a new UI address: ${node.appUrlCommandLine}; the app token for /app/api/*: ${node.appTokenFile}\n`,
    );
    const me = node.private.identity();
    // What other nodes pin with --trust-entity NAME=KEY (docs/private.md).
    io.stderr.write(
      `weft node: /private entity ${me.entity ?? "none (--entity NAME)"}, public key ${me.publicKey} (fingerprint ${me.fingerprint})\n`,
    );
    io.stdout.write(`${node.baseUrl}\n`);
    if (stopRequested === undefined) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
    io.stderr.write(`weft node: ${stopRequested ?? "stop"} received, closing\n`);
    await node.close();
    io.stderr.write("weft node: stopped\n");
    return 0;
  } catch (e) {
    if (isNodeError(e)) {
      io.stderr.write(`weft node: ${e.message}\n`);
      const taken = portInUse(e);
      if (taken !== null) {
        io.stderr.write(
          `weft node: stop it, or give another port: --${taken.flag} ${taken.port + 1} (--${taken.flag} 0 takes any free port)\n`,
        );
      }
      return isNodeError(e, ConfigErrorCode.BadFlag) ? 2 : 1;
    }
    throw e;
  } finally {
    unsubscribe();
  }
}
