/**
 * `weft send`, `weft local`, `weft poll`, `weft listen`: post a request to a
 * node's contract command endpoints (`{node}/chain/{chain}/pact/api/v1/…`)
 * and print the node's answer (JSON, one line) on standard output. A
 * refusal (any status but 200) is printed on standard error with its status
 * and exits 1. `--node` is the node's base URL as `weft node` prints it
 * (`http://127.0.0.1:1848/ledger/0.0/development`).
 *
 * - `send FILE.json`: the /send body `{"cmds": [...]}` as `weft -a` prints
 *   it, or a single command; the chain is the first command's
 *   `meta.chainId` unless `--chain` is given.
 * - `local FILE.json`: one command (`weft -a -l`); `--preflight`,
 *   `--no-signature-verification`, `--rewind-depth N`.
 * - `poll KEY… | FILE.json`: request keys, or a /send answer
 *   (`{"requestKeys": [...]}`); `--confirmation-depth N`; needs `--chain`.
 * - `listen KEY`: waits for one result; needs `--chain`.
 * A request key that starts with `-` is a key, not an option.
 * FILE may be `-` for standard input.
 * @module
 */
import { cliError, usageError } from "./errors.ts";
import type { CliIo } from "./io.ts";
import { readTextFile } from "./readFiles.ts";
import { runCommand } from "./runCommand.ts";

export const PACT_CLIENT_USAGE = `Usage:
  weft send FILE.json --node URL [--chain N]
  weft local FILE.json --node URL [--chain N] [--preflight] [--no-signature-verification] [--rewind-depth N]
  weft poll (KEY... | FILE.json) --node URL --chain N [--confirmation-depth N]
  weft listen KEY --node URL --chain N

URL is the node's base URL (weft node prints it), e.g.
http://127.0.0.1:1848/ledger/0.0/development. FILE may be - for standard input.
The node's answer is printed as JSON; a refusal goes to standard error (exit 1).
`;

type Verb = "send" | "local" | "poll" | "listen";

const REQUEST_KEY = /^[a-zA-Z0-9_-]{43}$/;

type Parsed = {
  positional: string[];
  node?: string;
  chain?: number;
  preflight: boolean;
  signatureVerification: boolean;
  rewindDepth?: number;
  confirmationDepth?: number;
};

function natural(flag: string, value: string | undefined): number {
  if (
    value === undefined ||
    !/^(0|[1-9][0-9]*)$/.test(value) ||
    !Number.isSafeInteger(Number(value))
  ) {
    throw usageError(`${flag} needs a non-negative integer`);
  }
  return Number(value);
}

function parseArgs(verb: Verb, args: readonly string[]): Parsed {
  const p: Parsed = { positional: [], preflight: false, signatureVerification: true };
  let optionsEnded = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    // A request key may start with "-" (base64url): one of 43 key characters is
    // never taken for an option; after "--" nothing is.
    if (optionsEnded || ((verb === "poll" || verb === "listen") && REQUEST_KEY.test(a))) {
      p.positional.push(a);
      continue;
    }
    if (a === "--") {
      optionsEnded = true;
      continue;
    }
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw usageError(`${a} needs a value`);
      return v;
    };
    if (a === "--node") p.node = value();
    else if (a === "--chain") p.chain = natural(a, value());
    else if (a === "--preflight" && verb === "local") p.preflight = true;
    else if (a === "--no-signature-verification" && verb === "local")
      p.signatureVerification = false;
    else if (a === "--rewind-depth" && verb === "local") p.rewindDepth = natural(a, value());
    else if (a === "--confirmation-depth" && verb === "poll")
      p.confirmationDepth = natural(a, value());
    else if (a.startsWith("-") && a !== "-")
      throw usageError(`unknown option ${a} for weft ${verb}`);
    else p.positional.push(a);
  }
  if (p.node === undefined) throw usageError(`weft ${verb} needs --node URL`);
  return p;
}

async function readInput(path: string, io: CliIo): Promise<{ text: string; file: string }> {
  if (path === "-") return { text: await io.readStdin(), file: "<stdin>" };
  return { text: readTextFile(path, path), file: path };
}

function parseJsonFile(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw cliError("CLI_BAD_YAML", file, "", `not JSON: ${e instanceof Error ? e.message : e}`);
  }
}

/** The chain a command is for (`meta.chainId` inside its `cmd`). */
function chainOfCommand(command: unknown, file: string): number {
  const cmd =
    typeof command === "object" && command !== null
      ? (command as { cmd?: unknown }).cmd
      : undefined;
  if (typeof cmd === "string") {
    try {
      const chainId = (JSON.parse(cmd) as { meta?: { chainId?: unknown } }).meta?.chainId;
      if (typeof chainId === "string" && /^(0|[1-9][0-9]*)$/.test(chainId)) return Number(chainId);
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      // A cmd that is not JSON has no chain id either: reported below.
    }
  }
  throw cliError("CLI_BAD_FIELD", file, "cmd.meta.chainId", "no chain id found; give --chain N");
}

async function post(io: CliIo, url: string, body: unknown): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (e) {
    const reason =
      e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);
    throw cliError("CLI_REQUEST_FAILED", url, "", `cannot reach the node: ${reason}`, e);
  }
  const text = await response.text();
  if (response.status !== 200) {
    throw cliError(
      "CLI_REQUEST_FAILED",
      url,
      "",
      `the node answered ${response.status}: ${text.trim() === "" ? "(no body)" : text.trim()}`,
    );
  }
  io.stdout.write(`${text.trim()}\n`);
}

function endpoint(node: string, chain: number, verb: Verb, query: Record<string, string>): string {
  const q = Object.entries(query)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join("&");
  return `${node.replace(/\/+$/, "")}/chain/${chain}/pact/api/v1/${verb}${q === "" ? "" : `?${q}`}`;
}

async function run(verb: Verb, args: readonly string[], io: CliIo): Promise<void> {
  const p = parseArgs(verb, args);
  const node = p.node as string;
  switch (verb) {
    case "send": {
      const [path, ...rest] = p.positional;
      if (path === undefined || rest.length > 0) throw usageError("weft send takes one FILE.json");
      const { text, file } = await readInput(path, io);
      const value = parseJsonFile(text, file);
      const body =
        typeof value === "object" && value !== null && "cmds" in value ? value : { cmds: [value] };
      const cmds = (body as { cmds: unknown }).cmds;
      const chain = p.chain ?? chainOfCommand(Array.isArray(cmds) ? cmds[0] : undefined, file);
      return post(io, endpoint(node, chain, "send", {}), body);
    }
    case "local": {
      const [path, ...rest] = p.positional;
      if (path === undefined || rest.length > 0) throw usageError("weft local takes one FILE.json");
      const { text, file } = await readInput(path, io);
      const command = parseJsonFile(text, file);
      const chain = p.chain ?? chainOfCommand(command, file);
      const query: Record<string, string> = {};
      if (p.preflight) query.preflight = "true";
      if (!p.signatureVerification) query.signatureVerification = "false";
      if (p.rewindDepth !== undefined) query.rewindDepth = String(p.rewindDepth);
      return post(io, endpoint(node, chain, "local", query), command);
    }
    case "poll": {
      if (p.chain === undefined) throw usageError("weft poll needs --chain N");
      let keys = p.positional;
      if (keys.length === 1 && !REQUEST_KEY.test(keys[0] as string)) {
        const { text, file } = await readInput(keys[0] as string, io);
        const value = parseJsonFile(text, file) as { requestKeys?: unknown };
        if (
          !Array.isArray(value.requestKeys) ||
          !value.requestKeys.every((k) => typeof k === "string")
        ) {
          throw cliError("CLI_BAD_FIELD", file, "requestKeys", "expected a list of request keys");
        }
        keys = value.requestKeys as string[];
      }
      if (keys.length === 0) throw usageError("weft poll needs request keys or a FILE.json");
      const query: Record<string, string> = {};
      if (p.confirmationDepth !== undefined) query.confirmationDepth = String(p.confirmationDepth);
      return post(io, endpoint(node, p.chain, "poll", query), { requestKeys: keys });
    }
    case "listen": {
      if (p.chain === undefined) throw usageError("weft listen needs --chain N");
      const [key, ...rest] = p.positional;
      if (key === undefined || rest.length > 0)
        throw usageError("weft listen takes one request key");
      return post(io, endpoint(node, p.chain, "listen", {}), { listen: key });
    }
    default: {
      const never: never = verb;
      return never;
    }
  }
}

/** `weft send|local|poll|listen …`; resolves to the exit code. */
export function pactClientCommand(verb: Verb, args: readonly string[], io: CliIo): Promise<number> {
  if (args.includes("--help")) {
    io.stdout.write(PACT_CLIENT_USAGE);
    return Promise.resolve(0);
  }
  return runCommand(io, PACT_CLIENT_USAGE, () => run(verb, args, io));
}
