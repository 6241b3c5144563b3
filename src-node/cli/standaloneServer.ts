/**
 * `weft -s CONFIG.yaml`: the built-in standalone server (spec "Contract
 * command endpoints": "The built-in standalone server serves `POST
 * /api/v1/local`"). No chain, no blocks: it runs one command at a time on a
 * contract state of its own, in local mode (nothing persists), and answers
 * `{"status": "success", "response": {"status": "success", "data": …}}`
 * (a contract failure: `response` is `{"status": "failure", "error": {…}}`);
 * a request it cannot read gets 400 `{"status": "failure", "error": "…"}`.
 *
 * The command is checked as /local checks it (hash, signatures; a
 * network-less command is fine); chain data comes from its metadata, block
 * height 0 and block time the server's clock. Namespaces: anyone may define
 * modules at the root (the reference repl's policy).
 *
 * Configuration (YAML): `port` (default 8080), `host` (default 127.0.0.1),
 * `gasLimit` (default: the command's), `gasRate` (gas per unit of work,
 * default 0); the reference's `persistDir`, `logDir`, `verbose`, `pragmas`
 * are accepted and have no effect. Other keys are errors.
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { JsonNumber, RawJson, stringifyJson } from "../command/exactJson.ts";
import { runContractCommand } from "../contract/execute.ts";
import { createMemoryStorage } from "../contract/storage/memoryStorage.ts";
import { isNodeError } from "../errors/nodeError.ts";
import { resultJsonText } from "../exec/commandResult.ts";
import { contractInputOf } from "../exec/contractInput.ts";
import { decimalOfText } from "../exec/gasMath.ts";
import { nodeCommands } from "../exec/nodeCommands.ts";
import { cliError, usageError } from "./errors.ts";
import type { CliIo } from "./io.ts";
import { processStopSignals, type StopSignals } from "./node.ts";
import { readYamlFile } from "./readFiles.ts";

export type StandaloneConfig = {
  readonly port: number;
  readonly host: string;
  /** Gas limit of every command; undefined: the command's own. */
  readonly gasLimit: number | undefined;
  readonly gasRate: number;
};

export const STANDALONE_USAGE = `Usage: weft -s CONFIG.yaml

Runs the built-in standalone server: POST /api/v1/local runs a command on a
contract state of its own (nothing persists). Configuration keys: port (8080),
host (127.0.0.1), gasLimit (the command's), gasRate (0); persistDir, logDir,
verbose and pragmas are accepted and ignored. Stop with Ctrl-C.
`;

const IGNORED_KEYS = new Set(["persistDir", "logDir", "verbose", "pragmas"]);
/** Largest request body. */
const BODY_LIMIT = 2 * 1024 * 1024;

function integerOf(v: unknown, file: string, field: string, min: number, max: number): number {
  const n =
    v instanceof JsonNumber ? Number(v.text) : typeof v === "string" ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw cliError("CLI_BAD_FIELD", file, field, `expected an integer from ${min} to ${max}`);
  }
  return n;
}

/**
 * Reads the server's YAML configuration.
 * @throws {CliError} CLI_READ_FAILED, CLI_BAD_YAML, CLI_UNKNOWN_KEY, CLI_BAD_FIELD.
 */
export function readStandaloneConfig(path: string): StandaloneConfig {
  const value = readYamlFile(path);
  if (value === null) return { port: 8080, host: "127.0.0.1", gasLimit: undefined, gasRate: 0 };
  if (typeof value !== "object" || Array.isArray(value) || value instanceof JsonNumber) {
    throw cliError("CLI_BAD_FIELD", path, "", "expected a mapping of configuration keys");
  }
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!["port", "host", "gasLimit", "gasRate"].includes(k) && !IGNORED_KEYS.has(k)) {
      throw cliError(
        "CLI_UNKNOWN_KEY",
        path,
        k,
        "not a key of the standalone server's configuration",
      );
    }
  }
  if (o.host !== undefined && typeof o.host !== "string") {
    throw cliError("CLI_BAD_FIELD", path, "host", "expected a host name or address");
  }
  return {
    port: o.port === undefined ? 8080 : integerOf(o.port, path, "port", 0, 65535),
    host: (o.host as string | undefined) ?? "127.0.0.1",
    gasLimit:
      o.gasLimit === undefined
        ? undefined
        : integerOf(o.gasLimit, path, "gasLimit", 0, Number.MAX_SAFE_INTEGER),
    gasRate: o.gasRate === undefined ? 0 : integerOf(o.gasRate, path, "gasRate", 0, 1_000_000),
  };
}

/** Runs a /api/v1/local body; the `response` object's JSON text. */
export function standaloneLocal(
  config: StandaloneConfig,
  body: unknown,
  nowMicros: number,
): string {
  const command = nodeCommands.parseCommand(body);
  nodeCommands.verifyCommandSignatures(command);
  const input = contractInputOf(command);
  const meta = command.payload.meta;
  const gasLimit = config.gasLimit ?? meta.gasLimit;
  const out = runContractCommand({
    payload: input.payload,
    data: input.data,
    signers: input.signers,
    chainData: {
      chainId: meta.chainId,
      blockHeight: 0n,
      blockTime: BigInt(nowMicros),
      prevBlockHash: "",
      sender: meta.sender,
      gasLimit: BigInt(gasLimit),
      gasPrice: decimalOfText(meta.gasPrice),
    },
    txHash: command.hash,
    gasLimit,
    gasModel: { kind: "fixed", rate: config.gasRate },
    namespacePolicy: { kind: "simple" },
    storage: createMemoryStorage(),
    mode: "local",
    file: "local",
  });
  return resultJsonText(out.result);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > BODY_LIMIT) {
        reject(new Error(`body larger than ${BODY_LIMIT} bytes`));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function answer(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

function failure(res: ServerResponse, status: number, message: string): void {
  answer(res, status, JSON.stringify({ status: "failure", error: message }));
}

/** Starts the standalone server; resolves once it listens. */
export async function startStandaloneServer(
  config: StandaloneConfig,
  now: () => number = () => Date.now() * 1000,
): Promise<{ readonly url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/api/v1/local") return failure(res, 404, `no route for ${req.method} ${path}`);
    if (req.method !== "POST") return failure(res, 405, "use POST");
    readBody(req).then(
      (text) => {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch (e) {
          return failure(res, 400, `the body is not JSON: ${e instanceof Error ? e.message : e}`);
        }
        try {
          const response = new RawJson(standaloneLocal(config, body, now()));
          answer(res, 200, stringifyJson({ status: "success", response }));
        } catch (e) {
          if (!isNodeError(e)) throw e;
          failure(res, isNodeError(e, "CONTRACT_INVARIANT") ? 500 : 400, e.message);
        }
      },
      (e: unknown) => failure(res, 400, e instanceof Error ? e.message : String(e)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `weft -s CONFIG.yaml`: serves until stopped; resolves to the exit code. */
export async function standaloneCommand(
  args: readonly string[],
  io: CliIo,
  signals: StopSignals = processStopSignals(),
): Promise<number> {
  if (args.includes("--help")) {
    io.stdout.write(STANDALONE_USAGE);
    return 0;
  }
  let stopped: string | undefined;
  let wake: (() => void) | undefined;
  const unsubscribe = signals.onStop((signal) => {
    stopped = signal;
    wake?.();
  });
  try {
    const [file, ...rest] = args;
    if (file === undefined || rest.length > 0) throw usageError("weft -s takes one CONFIG.yaml");
    const server = await startStandaloneServer(readStandaloneConfig(file));
    io.stdout.write(`${server.url}/api/v1/local\n`);
    if (stopped === undefined) await new Promise<void>((resolve) => (wake = resolve));
    await server.close();
    io.stderr.write(`weft -s: ${stopped ?? "stop"} received, stopped\n`);
    return 0;
  } catch (e) {
    if (isNodeError(e)) {
      io.stderr.write(
        `weft: ${e.message}\n${isNodeError(e, "CLI_USAGE") ? `\n${STANDALONE_USAGE}` : ""}`,
      );
      return isNodeError(e, "CLI_USAGE") ? 2 : 1;
    }
    if (e instanceof Error && "code" in e) {
      io.stderr.write(`weft -s: cannot listen: ${e.message}\n`);
      return 1;
    }
    throw e;
  } finally {
    unsubscribe();
  }
}
