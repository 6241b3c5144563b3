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

import { defaultDataDir } from "../config/defaultDataDir.ts";
import { ConfigErrorCode } from "../config/errors.ts";
import { loadConfigFile } from "../config/loadConfigFile.ts";
import { mergeNodeOptions, NETWORK_NAMES } from "../config/nodeOptions.ts";
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

export const NODE_USAGE = `Usage: weft node [options]

Runs a node and its HTTP API until interrupted (Ctrl-C, SIGTERM).

Options:
  --network NAME          ${NETWORK_NAMES.join(", ")} (default development)
  --data-dir DIR          where databases live (default ${defaultDataDir()})
  --host HOST             address to listen on (default 127.0.0.1)
  --port N                port (default 1848; 0 = any free port)
  --allowed-host NAME[,NAME]  more names the Host header may carry (a name peers
                          reach this node by; loopback names and IPs always work)
  --app-remote            let browsers on other computers open the app with an
                          address from weft app-url (default: this computer only;
                          a risk on any network you do not control: docs/node.md)
  --config FILE.yaml      options from a YAML file (keys as the flags; flags win)
  --enable-backup-api     serve {base_url}/make-backup and /check-backup
  --backup-directory DIR  where backups are written
  --enable-mining-api     serve {base_url}/mining/work, /mining/solved, /mining/updates
  --mine                  run the built-in miner (needs --miner-account, except on
                          development networks, where the blocks then pay sender09)
  --miner-account NAME    account that receives mining rewards
  --miner-key HEX[,HEX]   its public key(s); not needed for a k:<key> account
  --miner-threads N       built-in miner threads (default 1)
  --mine-on-demand        mine only while something waits for blocks: a transaction
                          until it is confirmed, a cross-chain transfer until its
                          proof can be made (development networks; without
                          --miner-account the blocks pay sender09; docs/mining.md)
  --no-mine-on-demand     never (the default of weft node; the app's is on for
                          development networks without a reward account)
  --on-demand-confirmations N  blocks mined on top of the one holding the
                          transaction (default 1)
  --listen-timeout SECS   how long /listen waits for a result (default 180)
  --spv-timeout SECS      how long /spv waits for the target chain (default 180)
  --spv-proof-depth N     how deep a continuation's proof root may be (default 20000)
  --state-horizon N       blocks below each head whose contract state stays exact;
                          older history is compacted (default: the SPV proof depth)
  --archive               keep the whole contract-state history (no compaction)
  --peer HOST:PORT        a peer to connect to (repeatable; docs/p2p.md)
  --p2p-port N            port of the peer interface (default: the API's port)
  --max-peers N           most peers (default 16)
  --entity NAME           this node's entity name for /private
  --trust-entity NAME=KEY an entity /private may talk to, pinned to its public key
                          (as its node prints it at start; repeatable; docs/private.md)
  --p2p-tls               TLS on the peer port (needs --p2p-port); peers name it FINGERPRINT@HOST:PORT
  --p2p-allow-private-addresses
                          take loopback, link-local and private addresses learnt from
                          peers (default: only those of the kind this node publishes)
  --help, -h              this text

A port already in use: stop the program that has it, or give another (--port 0 takes any
free port; the address is printed).
`;

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
