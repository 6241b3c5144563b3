/**
 * The request-file flags of `weft`, as users know them from the reference
 * tool: `-g` (generate a key pair), `-a FILE [-l]` (API request JSON),
 * `-u FILE [-c]` (unsigned transaction). Parses the flags and runs one. The
 * argument after `-a`/`-u` is the file even when it starts with "-".
 * @module
 */
import { apiRequest } from "./apiRequest.ts";
import { usageError } from "./errors.ts";
import { genKey } from "./genKey.ts";
import type { CliIo } from "./io.ts";
import { REQUEST_TOOL_FLAGS } from "./requestToolFlags.ts";
import { runCommand } from "./runCommand.ts";
import { unsignedRequest } from "./unsignedRequest.ts";

export const REQUEST_TOOL_USAGE = `Usage:
  weft -g                     generate an ed25519 key pair (YAML: public, secret)
  weft -a FILE.yaml [-l]      format a request file as API request JSON for /send
                              (-l: the single command for /local)
  weft -u FILE.yaml [-c]      print an unsigned transaction (YAML: hash, sigs, cmd)
                              (-c: condensed cold-wallet form, without cmd)

FILE may be - (standard input; codeFile and dataFile then resolve from the
working directory) or start with -.

See docs/cli.md for the request-file format.
`;

function isToolFlag(arg: string): boolean {
  return (REQUEST_TOOL_FLAGS as readonly string[]).includes(arg);
}

type Parsed = { mode: "g" | "a" | "u"; file?: string; local: boolean; condensed: boolean };

function parseFlags(argv: readonly string[]): Parsed {
  let mode: Parsed["mode"] | undefined;
  let file: string | undefined;
  let local = false;
  let condensed = false;
  const setMode = (m: Parsed["mode"]) => {
    if (mode !== undefined && mode !== m) throw usageError("give only one of -g, -a, -u");
    mode = m;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "-g" || arg === "--genkey") setMode("g");
    else if (arg === "-l" || arg === "--local") local = true;
    else if (arg === "-c" || arg === "--condensed") condensed = true;
    else if (arg === "-a" || arg === "--apireq" || arg === "-u" || arg === "--unsigned") {
      setMode(arg === "-a" || arg === "--apireq" ? "a" : "u");
      // The next argument is the file even when it starts with "-" (`-` is
      // standard input), unless it is one of this tool's own flags.
      const next = argv[i + 1];
      if (next === undefined || isToolFlag(next)) throw usageError(`${arg} needs a request file`);
      if (file !== undefined) throw usageError("give one request file");
      file = next;
      i++;
    } else {
      throw usageError(`unexpected argument '${arg ?? ""}'`);
    }
  }
  if (mode === undefined) throw usageError("-l and -c go with -a FILE or -u FILE");
  if (local && mode !== "a") throw usageError("-l goes with -a FILE");
  if (condensed && mode !== "u")
    throw usageError("-c goes with -u FILE (and add-sig, combine-sigs)");
  return { mode, ...(file === undefined ? {} : { file }), local, condensed };
}

/** Runs `weft` with request-tool flags; resolves to the exit code. */
export function requestTool(argv: readonly string[], io: CliIo): Promise<number> {
  return runCommand(io, REQUEST_TOOL_USAGE, async () => {
    const { mode, file, local, condensed } = parseFlags(argv);
    if (mode === "g") return genKey(io);
    if (file === undefined) throw usageError("a request file is required");
    const source = file === "-" ? { name: "<stdin>", text: await io.readStdin() } : undefined;
    if (mode === "a") return apiRequest(file, local, io, source);
    return unsignedRequest(file, condensed, io, source);
  });
}
