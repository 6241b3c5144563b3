/**
 * `npm start`: opens the desktop app where an Electron binary is installed; otherwise, or
 * with `--headless`, runs the node under plain Node.js and prints the address of the same
 * UI for a browser (docs/desktop.md §8).
 *
 * It never `import`s the electron package to find the binary: that package's index tries to
 * download Electron when the binary is missing.
 *
 * `npm start` runs it compiled (`dist/electron/launch.js`, after `npm run build`), and the
 * Electron app it opens then runs the compiled shell too; `npm run dev` runs it from the
 * sources through tsx, and the Electron app likewise (`WEFT_FROM_SOURCES=1`, read by
 * `electron/entry.js`).
 *
 * Usage: node dist/electron/launch.js | tsx electron/launch.ts [--headless] [--network NAME] [--data-dir DIR] [--port N]
 *          [--renderer-dir DIR] [--settings FILE]
 *
 * `--settings FILE` (headless only) takes the node's settings from an app settings file (the
 * desktop's settings.json format: network, port, data folder, mining, the public mining and
 * backup APIs) instead of `--network` and `--port`, and reads it again on every restart, so
 * a setting changed there applies on "Restart node" (`--data-dir` is then the data folder
 * when the file names none).
 * `--renderer-dir` (headless only) serves another build of the UI than dist/renderer (tests).
 * Headless, the node runs under a supervisor (nodeSupervisor.ts): the app can restart it on
 * the same address (docs/desktop.md §3.4).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Result } from "../src-node/errors/result.ts";
import type { HostedNodeOptions, NodeNetwork } from "./nodeHost.ts";

/** The Electron executable installed in node_modules, or null when there is none. */
export function findElectronBinary(repoRoot: string): string | null {
  const pkg = join(repoRoot, "node_modules", "electron");
  const pathFile = join(pkg, "path.txt");
  if (!existsSync(pathFile)) return null;
  const relative = readFileSync(pathFile, "utf8").trim();
  if (relative === "") return null;
  const binary = join(pkg, "dist", relative);
  return existsSync(binary) ? binary : null;
}

export type LaunchOptions = {
  readonly headless: boolean;
  readonly network: NodeNetwork;
  /** Headless only; default `<repo>/.weft`. */
  readonly dataDir: string | null;
  readonly port: number;
  /** Headless only; default `<repo>/dist/renderer` (the node's own default). */
  readonly rendererDir?: string;
  /** Headless only: the app settings file the node's settings come from, read on every start. */
  readonly settingsFile?: string;
};

export type ParsedLaunch = Result<LaunchOptions>;

const networks: readonly NodeNetwork[] = [
  "development",
  "testnet04",
  "mainnet01",
  "test-singleton",
];

/** Parses the launcher's arguments. */
export function parseLaunchArgs(argv: readonly string[]): ParsedLaunch {
  let headless = false;
  let network: NodeNetwork = "development";
  let dataDir: string | null = null;
  let port = 1848;
  let rendererDir: string | undefined;
  let settingsFile: string | undefined;
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[i + 1];
    if (arg !== undefined) given.add(arg);
    switch (arg) {
      case "--headless":
        headless = true;
        break;
      case "--network": {
        const found = networks.find((n) => n === value);
        if (found === undefined) {
          return { ok: false, error: `--network takes one of ${networks.join(", ")}` };
        }
        network = found;
        i++;
        break;
      }
      case "--data-dir":
        if (value === undefined || value === "")
          return { ok: false, error: "--data-dir takes a folder" };
        dataDir = resolve(value);
        i++;
        break;
      case "--port": {
        const n = Number(value);
        if (value === undefined || !Number.isInteger(n) || n < 0 || n > 65535) {
          return { ok: false, error: "--port takes an integer from 0 to 65535" };
        }
        port = n;
        i++;
        break;
      }
      case "--renderer-dir":
        if (value === undefined || value === "")
          return { ok: false, error: "--renderer-dir takes a folder" };
        rendererDir = resolve(value);
        i++;
        break;
      case "--settings":
        if (value === undefined || value === "")
          return { ok: false, error: "--settings takes a settings file" };
        settingsFile = resolve(value);
        i++;
        break;
      default:
        return { ok: false, error: `unknown option ${arg}` };
    }
  }
  if (settingsFile !== undefined && (given.has("--network") || given.has("--port"))) {
    return {
      ok: false,
      error: "--settings FILE holds the network and the port: leave out --network and --port",
    };
  }
  const options: LaunchOptions = {
    headless,
    network,
    dataDir,
    port,
    ...(rendererDir === undefined ? {} : { rendererDir }),
    ...(settingsFile === undefined ? {} : { settingsFile }),
  };
  return { ok: true, value: options };
}

async function runHeadless(repoRoot: string, options: LaunchOptions): Promise<number> {
  const { NodeSupervisor } = await import("./nodeSupervisor.ts");
  const dataDir = options.dataDir ?? join(repoRoot, ".weft");
  const file = options.settingsFile;
  let nodeOptions: () => HostedNodeOptions;
  if (file === undefined) {
    const fixed: HostedNodeOptions = {
      network: options.network,
      dataDir,
      host: "127.0.0.1",
      port: options.port,
      rendererDir: options.rendererDir,
      // Mine on demand is the app's default on development networks (docs/mining.md).
      mining: { enabled: false, onDemand: "auto" },
    };
    nodeOptions = () => fixed;
  } else {
    const { readSettingsFile } = await import("./settings/settingsStore.ts");
    const { nodeOptionsOfSettings } = await import("./settings/nodeOptionsOfSettings.ts");
    // Read again on every restart: the file's changes apply on "Restart node".
    nodeOptions = () =>
      nodeOptionsOfSettings(readSettingsFile(file), {
        defaultDataDir: dataDir,
        host: "127.0.0.1",
        rendererDir: options.rendererDir,
      });
  }
  const first = nodeOptions();
  const network = first.network;
  let failed: ((e: unknown) => void) | null = null;
  const supervisor = new NodeSupervisor({
    options: first,
    reload: file === undefined ? undefined : nodeOptions,
    onRestarted: (node) => console.log(`Weft node restarted on ${node.appUrl}`),
    onRestartFailed: (e) => failed?.(e),
  });
  let node: Awaited<ReturnType<typeof supervisor.start>>;
  try {
    node = await supervisor.start();
  } catch (e) {
    const { portInUse } = await import("./nodeHost.ts");
    const taken = portInUse(e);
    if (taken === null) throw e;
    console.error(`The node could not start: ${e instanceof Error ? e.message : e}.`);
    console.error(
      file === undefined
        ? `Stop that program, or choose another port: npm start -- --headless --port ${taken.port + 1} (0 takes any free port).`
        : `Stop that program, or set another "port" in ${file}.`,
    );
    return 1;
  }
  console.log(`Weft node running (${network}).`);
  // Opens the app once in a browser, which keeps it open until the node stops; a new address
  // comes from `weft app-url` (it reads the token file only the data folder's owner can read).
  console.log(`  UI:  ${node.appCodeUrl()}`);
  console.log(`  API: ${node.baseUrl}`);
  console.log(`The UI address opens the app once. A new one: npx ${node.appUrlCommandLine}`);
  console.log("Press Ctrl+C to stop.");
  const code = await new Promise<number>((done) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      done(0);
    };
    failed = (e) => {
      console.error(`The node could not start again: ${e instanceof Error ? e.message : e}`);
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      done(1);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  console.log("Stopping the node…");
  await supervisor.close();
  return code;
}

/** True when this file runs compiled (from `dist/electron/`), false from the sources. */
const COMPILED = import.meta.url.endsWith(".js");

/** The checkout's root, from this file's place in `electron/` or `dist/electron/`. */
export function repoRootOf(moduleUrl: string): string {
  return fileURLToPath(new URL(moduleUrl.endsWith(".js") ? "../.." : "..", moduleUrl));
}

function runElectron(binary: string, repoRoot: string): Promise<number> {
  const env = { ...process.env };
  if (COMPILED) delete env.WEFT_FROM_SOURCES;
  else env.WEFT_FROM_SOURCES = "1";
  // Set by some tools; it would make the binary behave as plain Node.js.
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(binary, [repoRoot], { stdio: "inherit", env });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on("SIGINT", forward("SIGINT"));
  process.on("SIGTERM", forward("SIGTERM"));
  return new Promise((done) => {
    child.on("exit", (code, signal) => done(code ?? (signal === null ? 0 : 1)));
    child.on("error", (e) => {
      console.error(`Could not start Electron: ${e.message}`);
      done(1);
    });
  });
}

export async function launch(argv: readonly string[], repoRoot: string): Promise<number> {
  const parsed = parseLaunchArgs(argv);
  if (!parsed.ok) {
    console.error(`npm start: ${parsed.error}`);
    return 2;
  }
  const binary = parsed.value.headless ? null : findElectronBinary(repoRoot);
  if (binary !== null) return runElectron(binary, repoRoot);
  if (!parsed.value.headless) {
    console.log(
      "No Electron binary in node_modules/electron: running headless; open the UI in a browser.",
    );
  }
  return runHeadless(repoRoot, parsed.value);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const repoRoot = repoRootOf(import.meta.url);
  launch(process.argv.slice(2), repoRoot).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : String(e));
      process.exitCode = 1;
    },
  );
}
