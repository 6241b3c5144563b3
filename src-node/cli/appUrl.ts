/**
 * `weft app-url [--data-dir DIR] [--network NAME] [--host NAME]`: prints a new
 * address that opens the app of the node running on DIR in a browser,
 * `http://127.0.0.1:PORT/app/?code=…` (docs/node.md "The app token"). The
 * code works once, within five minutes (api/appCodes.ts).
 *
 * How it gets a code the node accepts: it reads the two files the running
 * node writes into `DIR/<network>/`, `app-token` (the launch's secret) and
 * `app-address` (where this computer reaches the node), both 0600, so only
 * the user who owns the data folder (and root) can read them; then it asks
 * the node for a code with the token (`POST /app/api/app-code`, guarded like
 * every app route). Nothing is derived or stored: the node keeps its codes in
 * memory. Exit codes: 0 printed, 1 no node runs there or it refused, 2 usage.
 * @module
 */
import { readFileSync } from "node:fs";
import { defaultDataDir } from "../config/defaultDataDir.ts";
import { NETWORK_NAMES, resolvePath } from "../config/optionChecks.ts";
import { isNodeError } from "../errors/nodeError.ts";
import { isSystemError } from "../errors/systemError.ts";
import { appAddressPath, appTokenPath } from "../node.ts";
import { CliErrorCode, cliError, usageError } from "./errors.ts";
import type { CliIo } from "./io.ts";
import { readValueFlags } from "./valueFlags.ts";

export const APP_URL_USAGE = `Usage: weft app-url [--data-dir DIR] [--network NAME] [--host NAME]

Prints a new address that opens the app of the node running on DIR in a
browser: http://127.0.0.1:PORT/app/?code=…  The code works once, within five
minutes; the browser then keeps the app open until the node stops.

It reads DIR/<network>/app-token and DIR/<network>/app-address, which the
running node writes and only the owner of the data folder can read, and asks
the node for the code.

Options:
  --data-dir DIR   the node's data directory (default ${defaultDataDir()};
                   npm start -- --headless: .weft in the Weft folder)
  --network NAME   the node's network (default development)
  --host NAME      the host name to print instead of 127.0.0.1 (a node reached
                   from other computers with --app-remote)
  --help           this text
`;

type Parsed = { dataDir?: string; network?: string; host?: string; help: boolean };

const FLAGS: ReadonlySet<string> = new Set(["--data-dir", "--network", "--host"]);

function parseArgs(args: readonly string[]): Parsed {
  const { values, help } = readValueFlags(args, FLAGS, "app-url");
  const dataDir = values.get("--data-dir")?.[0];
  const network = values.get("--network")?.[0];
  const host = values.get("--host")?.[0];
  return {
    help,
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(network === undefined ? {} : { network }),
    ...(host === undefined ? {} : { host }),
  };
}

function readNodeFile(path: string, dataDir: string, network: string): string {
  try {
    return readFileSync(path, "utf8").trim();
  } catch (e) {
    // A file that cannot be read is the expected failure; anything else is a bug.
    if (!isSystemError(e)) throw e;
    const why =
      e.code === "ENOENT"
        ? `no node of the ${network} network runs on ${dataDir} (start one, or give its --data-dir and --network)`
        : `cannot read it: ${e instanceof Error ? e.message : String(e)} (only the data folder's owner can)`;
    throw cliError(CliErrorCode.ReadFailed, path, "", why, e);
  }
}

export type AppUrlOptions = {
  readonly dataDir: string;
  readonly network: string;
  /** The host name to print instead of the node's. */
  readonly host?: string | undefined;
  readonly fetch?: typeof fetch | undefined;
};

/**
 * A new one-time address of the node running on `dataDir` (see the module).
 * @throws {CliError} CLI_READ_FAILED (no node runs there, or the files are not readable),
 *   CLI_REQUEST_FAILED (the node cannot be reached or refused).
 */
export async function requestAppUrl(
  options: AppUrlOptions,
): Promise<{ url: string; expiresAt: string }> {
  const token = readNodeFile(appTokenPath(options), options.dataDir, options.network);
  const addressFile = appAddressPath(options);
  const address = readNodeFile(addressFile, options.dataDir, options.network);
  let origin: URL;
  try {
    origin = new URL(address);
  } catch (e) {
    // new URL throws a TypeError for what is not a URL, and nothing else.
    if (!(e instanceof TypeError)) throw e;
    throw cliError(CliErrorCode.ReadFailed, addressFile, "", `not an address: ${address}`, e);
  }
  const endpoint = `${origin.origin}/app/api/app-code`;
  let answer: { code?: unknown; expiresAt?: unknown };
  try {
    const r = await (options.fetch ?? fetch)(endpoint, {
      method: "POST",
      // The header of api/appToken.ts (the cli area does not import api/).
      headers: { "x-weft-app-token": token, "content-type": "application/json" },
      body: "{}",
    });
    const text = await r.text();
    if (!r.ok) {
      throw cliError(
        CliErrorCode.RequestFailed,
        endpoint,
        "",
        `the node answered ${r.status}: ${text.slice(0, 300)}`,
      );
    }
    try {
      answer = JSON.parse(text) as { code?: unknown; expiresAt?: unknown };
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      throw cliError(CliErrorCode.RequestFailed, endpoint, "", "the node answered no JSON", e);
    }
  } catch (e) {
    if (isNodeError(e)) throw e;
    // fetch rejects with a TypeError when the node cannot be reached (its cause says why),
    // a system error while the answer is read, an AbortError when it is cut off.
    const unreachable =
      e instanceof TypeError || isSystemError(e) || (e instanceof Error && e.name === "AbortError");
    if (!unreachable) throw e;
    throw cliError(
      CliErrorCode.RequestFailed,
      endpoint,
      "",
      `cannot reach the node (${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ""}); is it running?`,
      e,
    );
  }
  if (typeof answer.code !== "string" || !/^[A-Za-z0-9_-]+$/.test(answer.code)) {
    throw cliError(CliErrorCode.RequestFailed, endpoint, "code", "the node answered no code");
  }
  const shown = new URL(origin.origin);
  if (options.host !== undefined) shown.hostname = options.host;
  return { url: `${shown.origin}/app/?code=${answer.code}`, expiresAt: String(answer.expiresAt) };
}

export async function appUrlCommand(args: string[], io: CliIo): Promise<number> {
  try {
    const parsed = parseArgs(args);
    if (parsed.help) {
      io.stdout.write(APP_URL_USAGE);
      return 0;
    }
    const network = parsed.network ?? "development";
    if (!NETWORK_NAMES.includes(network)) {
      throw usageError(`--network: one of ${NETWORK_NAMES.join(", ")}`);
    }
    if (parsed.host !== undefined && !/^[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:.]+\]$/.test(parsed.host)) {
      throw usageError("--host: a host name or IP address");
    }
    const dataDir =
      parsed.dataDir === undefined ? defaultDataDir() : resolvePath(parsed.dataDir, process.cwd());
    const { url, expiresAt } = await requestAppUrl({ dataDir, network, host: parsed.host });
    io.stdout.write(`${url}\n`);
    io.stderr.write(
      `weft app-url: opens the app once, until ${expiresAt}; the browser then keeps it open until the node stops\n`,
    );
    return 0;
  } catch (e) {
    if (isNodeError(e)) {
      io.stderr.write(`weft app-url: ${e.message}\n`);
      return isNodeError(e, CliErrorCode.Usage) ? 2 : 1;
    }
    throw e;
  }
}
