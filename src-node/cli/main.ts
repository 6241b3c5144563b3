/**
 * The `weft` command line: dispatches to subcommands. Each subcommand lives in
 * its own file under cli/ and returns an exit code; nothing here calls
 * process.exit, so the CLI is testable in-process.
 * @module
 */
import { readFileSync } from "node:fs";
import { type CliIo, processIo } from "./io.ts";
import { REQUEST_TOOL_FLAGS } from "./requestToolFlags.ts";

/** A subcommand: its arguments (after its name) and the injected streams. */
type Subcommand = (args: string[], io: CliIo) => Promise<number>;

/**
 * Subcommands by name; later areas register theirs here. Each is imported when it runs, so
 * `weft help` or `weft -g` does not load the HTTP server, SQLite or the contract language.
 */
const subcommands: Record<string, Subcommand> = {
  "add-sig": async (args, io) => (await import("./addSig.ts")).addSig(args, io),
  "combine-sigs": async (args, io) => (await import("./combineSigs.ts")).combineSigs(args, io),
  node: async (args, io) => (await import("./node.ts")).nodeCommand(args, io),
  "app-url": async (args, io) => (await import("./appUrl.ts")).appUrlCommand(args, io),
  mine: async (args, io) => (await import("./mine.ts")).mineCommand(args, io),
  repl: async (args, io) => (await import("./repl.ts")).replCommand(args, io),
  backup: async (args, io) => (await import("./backup.ts")).backupCommand(args, io),
  restore: async (args, io) => (await import("./restore.ts")).restoreCommand(args, io),
  send: async (args, io) => (await import("./pactClient.ts")).pactClientCommand("send", args, io),
  local: async (args, io) => (await import("./pactClient.ts")).pactClientCommand("local", args, io),
  poll: async (args, io) => (await import("./pactClient.ts")).pactClientCommand("poll", args, io),
  listen: async (args, io) =>
    (await import("./pactClient.ts")).pactClientCommand("listen", args, io),
  "-s": async (args, io) => (await import("./standaloneServer.ts")).standaloneCommand(args, io),
  "--serve": async (args, io) =>
    (await import("./standaloneServer.ts")).standaloneCommand(args, io),
};

// The request-file flags (-g, -a, -u, -l, …) are one tool that reads the whole argv.
for (const flag of REQUEST_TOOL_FLAGS) {
  subcommands[flag] = async (args, io) =>
    (await import("./requestTool.ts")).requestTool([flag, ...args], io);
}

function packageVersion(): string {
  const pkg: unknown = JSON.parse(
    readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
  );
  return typeof pkg === "object" &&
    pkg !== null &&
    "version" in pkg &&
    typeof pkg.version === "string"
    ? pkg.version
    : "0.0.0";
}

const USAGE = `Usage: weft <command> [options]

Commands:
  --version            print the version
  help                 this text
  -g                   generate a key pair (YAML: public, secret)
  -a FILE.yaml [-l]    format a request file as API request JSON (-l: for /local)
  -u FILE.yaml [-c]    print an unsigned transaction (-c: condensed, without cmd)
  add-sig KEYFILE...   sign the unsigned transaction read on standard input
  combine-sigs FILE... merge signatures of partly signed transaction files
  repl [FILE.repl...]  run contract-language scripts, or an interactive prompt
  node [OPTIONS]       run a node (weft node --help lists its options)
  app-url [--data-dir D] [--network N]
                       a new address that opens the running node's app (weft app-url --help)
  mine --node URL --account A [--public-key K]
                       mine through a node's mining API (weft mine --help)
  backup list --backup-directory DIR
                       list backups with status, size and cut (weft backup --help)
  restore BACKUP_DIR [--data-dir DIR]
                       restore a backup into a data directory (weft restore --help)
  send FILE.json --node URL      post commands to a node's /send (weft send --help)
  local FILE.json --node URL     run a command with a node's /local
  poll KEY... --node URL --chain N
                       fetch results with a node's /poll (listen KEY: wait for one)
  -s CONFIG.yaml       run the standalone server (POST /api/v1/local)
`;

/**
 * Runs the CLI with `argv` (without node and script); resolves to the exit code.
 * @param io the streams and clock; the process's own by default.
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === "help" || first === "--help" || first === "-h") {
    io.stdout.write(USAGE);
    return first === undefined ? 1 : 0;
  }
  if (first === "--version" || first === "-v") {
    io.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const sub = subcommands[first];
  if (sub === undefined) {
    io.stderr.write(`weft: unknown command '${first}'\n\n${USAGE}`);
    return 2;
  }
  return sub(rest, io);
}
