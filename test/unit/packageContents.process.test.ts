/**
 * The desktop package's contents, checked without Electron's binary: the compiled output is
 * built (`npm run build`, incremental), electron-builder packs the app folder with the real
 * configuration and a stand-in Electron (build/packApp.ts), and the test reads the archive:
 * compiled JavaScript only (no TypeScript, tests, source maps or dev dependencies), every
 * worker entry and the built UI present, better-sqlite3's native module unpacked. Then the
 * packed app, extracted, runs under plain Node: the CLI, the node answering `/info` and
 * serving the UI, and a mining worker thread started from the compiled entry.
 * Takes about a minute (electron-builder, and the first build of the UI).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runStep } from "../../build/buildSteps.ts";
import { compiledPath, workerEntries } from "../../build/compileNode.ts";
import { genesisCacheFile, genesisFileOf, PRECOMPUTED_NETWORKS } from "../../build/genesisCache.ts";
import { packAppWithoutElectron } from "../../build/packApp.ts";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";

const repo = resolve(import.meta.dirname, "..", "..");
const require = createRequire(join(repo, "package.json"));
const asarLib = require("@electron/asar") as {
  listPackage(archive: string, options: { isPack: boolean }): string[];
  statFile(archive: string, file: string): { unpacked?: boolean };
  extractAll(archive: string, dest: string): void;
  extractFile(archive: string, file: string): Buffer;
};
const pkg = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as {
  version: string;
  devDependencies: Record<string, string>;
};

const work = mkdtempSync(join(tmpdir(), "weft-pack-"));
let asar = "";
let resources = "";
/** Archive paths without the leading slash. */
let files: string[] = [];
/** The archive extracted (unpacked files included), as the app sees its own folder. */
const app = join(work, "app");

beforeAll(async () => {
  for (const step of ["node", "renderer", "preload"] as const) await runStep(repo, step, false);
  ({ asar, resources } = await packAppWithoutElectron(repo, work));
  files = asarLib.listPackage(asar, { isPack: false }).map((f) => f.replace(/^[\\/]/, ""));
  asarLib.extractAll(asar, app);
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("[build] the packed app (app.asar)", () => {
  it("starts at the compiled shell", () => {
    const packed = JSON.parse(asarLib.extractFile(asar, "package.json").toString()) as {
      main: string;
    };
    expect(packed.main).toBe("dist/electron/desktopEntry.js");
    expect(files).toContain(packed.main);
  });

  it("holds every worker entry compiled, the built UI, the preload, the CLI and the genesis sources", () => {
    const workers = workerEntries(repo);
    expect(workers).toContain("src-node/mining/minerWorker.ts");
    for (const w of workers) expect(files).toContain(compiledPath(w));
    expect(files).toContain("dist/renderer/index.html");
    expect(files.some((f) => /^dist\/renderer\/assets\/.+\.js$/.test(f))).toBe(true);
    expect(files).toContain("dist/electron/preload.cjs");
    expect(files).toContain("bin/weft.js");
    expect(files).toContain("dist/package.json");
    expect(files).toContain("dist/src-node/genesis/pact/coin.pact");
    expect(files).toContain("dist/src-node/node.js");
  });

  it("holds each network's precomputed genesis, equal to what the sources compute", () => {
    for (const v of PRECOMPUTED_NETWORKS) expect(files).toContain(genesisCacheFile(v.name));
    const packed = asarLib.extractFile(asar, genesisCacheFile(testSingletonVersion.name));
    expect(packed.toString()).toBe(JSON.stringify(genesisFileOf(testSingletonVersion)));
  });

  it("holds no TypeScript, tests, source maps, build stamps or sources", () => {
    expect(files.filter((f) => f.endsWith(".ts") && !f.startsWith("node_modules/"))).toEqual([]);
    expect(files.filter((f) => /\.(ts|mts|cts)$/.test(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
    const top = new Set(files.map((f) => f.split("/")[0]));
    expect([...top].sort()).toEqual(["bin", "dist", "node_modules", "package.json"]);
    const inDist = new Set(files.filter((f) => f.startsWith("dist/")).map((f) => f.split("/")[1]));
    expect([...inDist].sort()).toEqual(["electron", "package.json", "renderer", "src-node"]);
  });

  it("holds no dev dependency (tsx, esbuild, vite, electron…)", () => {
    const modules = new Set(
      files
        .filter((f) => f.startsWith("node_modules/"))
        .map((f) => {
          const parts = f.split("/");
          return parts[1]?.startsWith("@") ? `${parts[1]}/${parts[2]}` : parts[1];
        }),
    );
    for (const dev of Object.keys(pkg.devDependencies)) expect(modules).not.toContain(dev);
    expect(modules).not.toContain("@esbuild/linux-x64");
    expect(modules).toContain("fastify");
    expect(modules).toContain("better-sqlite3");
  });

  it("keeps better-sqlite3's native module outside the archive, and the Electron build beside it", () => {
    const addon = "node_modules/better-sqlite3/build/Release/better_sqlite3.node";
    expect(files).toContain(addon);
    expect(asarLib.statFile(asar, addon).unpacked).toBe(true);
    expect(existsSync(join(resources, "app.asar.unpacked", addon))).toBe(true);
    expect(existsSync(join(resources, "native", "better_sqlite3.node"))).toBe(true);
  });
});

describe("[build] the packed app under plain Node", () => {
  it("runs the compiled CLI", () => {
    const r = spawnSync(process.execPath, [join(app, "bin", "weft.js"), "--version"], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(`${pkg.version}\n`);
  });

  it("starts the node: /info answers, the UI is served from dist/renderer", async () => {
    const data = join(work, "data");
    const child: ChildProcess = spawn(
      process.execPath,
      [
        join(app, "bin", "weft.js"),
        "node",
        "--network",
        "development",
        "--data-dir",
        data,
        "--port",
        "0",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.stderr?.on("data", (c: Buffer) => {
      err += c.toString();
    });
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    try {
      // The base URL on stdout; the one-time address that opens the app on stderr before it.
      const codeLine = /weft node: UI (http:\/\/\S+\/app\/\?code=\S+)/;
      await new Promise<void>((done, fail) => {
        const check = () => (out.includes("\n") && codeLine.test(err) ? done() : undefined);
        child.stdout?.on("data", check);
        child.stderr?.on("data", check);
        child.on("exit", () => fail(new Error(`the node exited: ${err}`)));
      });
      const base = out.trim();
      expect(base, err).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ledger\/0\.0\/development$/);
      const info = (await (await fetch(`${base}/info`)).json()) as {
        nodeNumberOfChains: number;
        nodePackageVersion: string;
      };
      expect(info.nodeNumberOfChains).toBe(20);
      const origin = new URL(base).origin;
      // Without the code, the page that says where the address is, and no cookie.
      const locked = await fetch(`${origin}/app/`);
      expect(locked.status).toBe(200);
      expect(locked.headers.get("set-cookie")).toBeNull();
      expect(await locked.text()).not.toContain("<div id=");
      // The printed address: its cookie opens the UI built into dist/renderer.
      const codeUrl = codeLine.exec(err)?.[1] ?? "";
      const opened = await fetch(codeUrl, { redirect: "manual" });
      expect(opened.status, codeUrl).toBe(303);
      const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      const ui = await fetch(`${origin}/app/`, { headers: { cookie } });
      expect(ui.status).toBe(200);
      expect(await ui.text()).toContain("<div id=");
      child.kill("SIGTERM");
      expect(await exited, err).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 120_000);

  it("runs a mining worker thread from its compiled entry (no tsx in the package)", () => {
    expect(existsSync(join(app, "node_modules", "tsx"))).toBe(false);
    const script = `
      const { WorkerPool } = await import(${JSON.stringify(`${join(app, "dist", "src-node", "mining", "workerPool.js")}`)});
      const work = new Uint8Array(322);
      work.fill(0xff, 4, 36);
      work[35] = 0x0f;
      const pool = new WorkerPool({
        threads: 1,
        onSolution: (s) => {
          console.log("solved " + s.workId);
          void pool.close().then(() => console.log("closed " + pool.liveThreads));
        },
        onError: (e) => console.log("error " + e.message),
      });
      await pool.start();
      pool.setWork("packed", work);
    `;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: app,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("solved packed\nclosed 0\n");
    expect(r.status).toBe(0);
  });
});
