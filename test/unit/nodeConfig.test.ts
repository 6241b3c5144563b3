/**
 * Node options: defaults, flags, the YAML file (keys mirror the flags,
 * paths relative to the file), flags over the file, and errors that name
 * the key or flag.
 */
import { rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultDataDir } from "../../src-node/config/defaultDataDir.ts";
import { ConfigError } from "../../src-node/config/errors.ts";
import { loadConfigFile, parseConfigText } from "../../src-node/config/loadConfigFile.ts";
import { mergeNodeOptions, resolveNodeOptions } from "../../src-node/config/nodeOptions.ts";
import { parseNodeFlags } from "../../src-node/config/parseNodeFlags.ts";
import { tempDir } from "../support/testNode.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function failure(f: () => unknown): { code: string; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof ConfigError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("no error");
}

describe("[config] defaults", () => {
  it("runs development on 127.0.0.1:1848 in the OS data folder, mining and backup off", () => {
    expect(resolveNodeOptions({})).toMatchObject({
      network: "development",
      dataDir: defaultDataDir(),
      host: "127.0.0.1",
      port: 1848,
      mining: { enabled: false },
      backup: { apiEnabled: false, directory: undefined },
      commands: { listenTimeout: 180 },
    });
  });

  it("picks an app-data folder per OS", () => {
    expect(defaultDataDir("linux", {}, "/home/u")).toBe("/home/u/.local/share/weft");
    expect(defaultDataDir("linux", { XDG_DATA_HOME: "/data" }, "/home/u")).toBe("/data/weft");
    expect(defaultDataDir("linux", { XDG_DATA_HOME: "relative" }, "/home/u")).toBe(
      "/home/u/.local/share/weft",
    );
    expect(defaultDataDir("darwin", {}, "/Users/u")).toBe(
      "/Users/u/Library/Application Support/Weft",
    );
    expect(
      defaultDataDir("win32", { LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "C:\\Users\\u"),
    ).toMatch(/Weft$/);
  });
});

describe("[config] flags", () => {
  it("reads the node, data and backup flags, in both spellings", () => {
    const f = parseNodeFlags([
      "--network",
      "test-singleton",
      "--data-dir=/tmp/w",
      "--host",
      "0.0.0.0",
      "--port=0",
      "--config",
      "node.yaml",
      "--enable-backup-api",
      "--backup-directory",
      "/tmp/b",
    ]);
    expect(f.configFile).toBe("node.yaml");
    expect(resolveNodeOptions(f.options)).toMatchObject({
      network: "test-singleton",
      dataDir: "/tmp/w",
      host: "0.0.0.0",
      port: 0,
      mining: { enabled: false },
      backup: { apiEnabled: true, directory: "/tmp/b" },
    });
    expect(parseNodeFlags(["--help"]).help).toBe(true);
  });

  it("resolves relative and ~ paths", () => {
    const f = parseNodeFlags(["--data-dir", "~/weft-data"]);
    expect(resolveNodeOptions(f.options, "/work").dataDir).toBe(join(homedir(), "weft-data"));
    expect(resolveNodeOptions({ dataDir: "rel" }, "/work").dataDir).toBe("/work/rel");
  });

  it("names the flag of an unknown flag, a missing value, a repeated flag", () => {
    expect(failure(() => parseNodeFlags(["--prot", "1"]))).toMatchObject({
      code: "CONFIG_BAD_FLAG",
      message: expect.stringMatching(/^--prot: /),
    });
    expect(failure(() => parseNodeFlags(["--port"]))).toMatchObject({
      code: "CONFIG_BAD_FLAG",
      message: expect.stringMatching(/^--port: /),
    });
    expect(failure(() => parseNodeFlags(["--port", "--host", "x"])).code).toBe("CONFIG_BAD_FLAG");
    expect(failure(() => parseNodeFlags(["--port", "1", "--port=2"])).message).toMatch(
      /more than once/,
    );
  });

  it("names the key of a bad value", () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ network: "moonnet" }, "network"],
      [{ network: "recap-development" }, "network"],
      [{ port: "http" }, "port"],
      [{ port: 70000 }, "port"],
      [{ port: -1 }, "port"],
      [{ port: 1.5 }, "port"],
      [{ host: "http://x" }, "host"],
      [{ host: "" }, "host"],
      [{ dataDir: 3 }, "data-dir"],
      [{ mining: { enabled: "yes" } }, "mining.enabled"],
      [{ mining: { threads: 0 } }, "mining.threads"],
      [{ backup: { apiEnabled: 1 } }, "backup.api.enabled"],
      [{ backup: { directory: "" } }, "backup.directory"],
      [{ commands: { listenTimeout: 0 } }, "commands.listen-timeout"],
      [{ commands: { listenTimeout: "soon" } }, "commands.listen-timeout"],
    ];
    for (const [input, key] of bad) {
      const f = failure(() => resolveNodeOptions(input));
      expect(f.code, key).toBe("CONFIG_BAD_VALUE");
      expect(f.message, key).toMatch(new RegExp(`^${key.replace(".", "\\.")}: `));
    }
  });
});

describe("[config] YAML file", () => {
  it("mirrors the flags; paths are relative to the file; flags win", () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir, "node.yaml");
    writeFileSync(
      file,
      [
        "network: test-singleton",
        "data-dir: ./data",
        "host: 127.0.0.1",
        "port: 1900",
        "mining:",
        "  enabled: true",
        "  threads: 3",
        "backup:",
        "  api:",
        "    enabled: true",
        "  directory: backups",
        "",
      ].join("\n"),
    );
    const fromFile = loadConfigFile(file);
    expect(resolveNodeOptions(fromFile, "/elsewhere")).toMatchObject({
      network: "test-singleton",
      dataDir: join(dir, "data"),
      host: "127.0.0.1",
      port: 1900,
      mining: { enabled: true, threads: 3 },
      backup: { apiEnabled: true, directory: join(dir, "backups") },
    });
    const flags = parseNodeFlags(["--port", "0", "--network", "test-transition"]).options;
    const merged = resolveNodeOptions(mergeNodeOptions(fromFile, flags));
    expect(merged).toMatchObject({
      port: 0,
      network: "test-transition",
      dataDir: join(dir, "data"),
      mining: { threads: 3 },
    });
  });

  it("lets the app answer other computers only when asked: app-remote, --app-remote", () => {
    expect(resolveNodeOptions({}).appRemote).toBe(false);
    expect(resolveNodeOptions(parseNodeFlags(["--app-remote"]).options).appRemote).toBe(true);
    const fromFile = parseConfigText("app-remote: true\n", "/f.yaml");
    expect(resolveNodeOptions(fromFile).appRemote).toBe(true);
    expect(
      resolveNodeOptions(mergeNodeOptions(fromFile, parseNodeFlags([]).options)).appRemote,
    ).toBe(true);
    expect(
      failure(() => resolveNodeOptions(parseConfigText("app-remote: yes please\n", "/f.yaml")))
        .message,
    ).toContain("app-remote");
  });

  it("sets /listen's timeout: commands.listen-timeout, --listen-timeout (flags win)", () => {
    const fromFile = parseConfigText("commands:\n  listen-timeout: 30\n", "/f.yaml");
    expect(resolveNodeOptions(fromFile).commands).toEqual({ listenTimeout: 30 });
    const flags = parseNodeFlags(["--listen-timeout=5"]).options;
    expect(resolveNodeOptions(flags).commands).toEqual({ listenTimeout: 5 });
    expect(resolveNodeOptions(mergeNodeOptions(fromFile, flags)).commands).toEqual({
      listenTimeout: 5,
    });
    expect(
      resolveNodeOptions(mergeNodeOptions(fromFile, parseNodeFlags([]).options)).commands,
    ).toEqual({ listenTimeout: 30 });
    expect(failure(() => parseConfigText("commands:\n  listen: 3\n", "n.yaml")).message).toContain(
      "commands.listen",
    );
    expect(failure(() => parseNodeFlags(["--listen-timeout"])).code).toBe("CONFIG_BAD_FLAG");
  });

  it("takes a fraction of a second from code (tests), whole seconds from a flag", () => {
    expect(resolveNodeOptions({ commands: { listenTimeout: 0.05 } }).commands.listenTimeout).toBe(
      0.05,
    );
    expect(resolveNodeOptions({ spv: { timeout: 1.5 } }).spv.timeout).toBe(1.5);
    expect(
      failure(() => resolveNodeOptions({ commands: { listenTimeout: 0.0001 } })).message,
    ).toMatch(/^commands\.listen-timeout: /);
    const flag = parseNodeFlags(["--listen-timeout", "0.5"]).options;
    expect(failure(() => resolveNodeOptions(flag)).message).toMatch(/^commands\.listen-timeout: /);
  });

  it("sets /spv's timeout and the proof depth: spv.*, --spv-* (flags win)", () => {
    const fromFile = parseConfigText("spv:\n  timeout: 30\n  proof-depth: 100\n", "/f.yaml");
    expect(resolveNodeOptions(fromFile).spv).toEqual({ timeout: 30, proofDepth: 100 });
    const flags = parseNodeFlags(["--spv-timeout=5"]).options;
    expect(resolveNodeOptions(mergeNodeOptions(fromFile, flags)).spv).toEqual({
      timeout: 5,
      proofDepth: 100,
    });
    expect(resolveNodeOptions({}).spv).toEqual({ timeout: undefined, proofDepth: undefined });
    expect(failure(() => resolveNodeOptions({ spv: { proofDepth: 0 } })).message).toContain(
      "spv.proof-depth",
    );
    expect(failure(() => resolveNodeOptions({ spv: { timeout: "soon" } })).message).toContain(
      "spv.timeout",
    );
    expect(failure(() => parseConfigText("spv:\n  depth: 3\n", "n.yaml")).message).toContain(
      "spv.depth",
    );
    expect(failure(() => parseNodeFlags(["--spv-proof-depth"])).code).toBe("CONFIG_BAD_FLAG");
  });

  it("sets the state's compaction: state.archive, state.horizon, --archive, --state-horizon", () => {
    expect(resolveNodeOptions({}).state).toEqual({ archive: false, horizon: undefined });
    const fromFile = parseConfigText("state:\n  archive: true\n  horizon: 500\n", "/f.yaml");
    expect(resolveNodeOptions(fromFile).state).toEqual({ archive: true, horizon: 500 });
    const flags = parseNodeFlags(["--state-horizon=40"]).options;
    expect(resolveNodeOptions(mergeNodeOptions(fromFile, flags)).state).toEqual({
      archive: true,
      horizon: 40,
    });
    expect(resolveNodeOptions(parseNodeFlags(["--archive"]).options).state).toEqual({
      archive: true,
      horizon: undefined,
    });
    expect(failure(() => resolveNodeOptions({ state: { horizon: 0 } })).message).toContain(
      "state.horizon",
    );
    expect(failure(() => resolveNodeOptions({ state: { archive: "yes" } })).message).toContain(
      "state.archive",
    );
    expect(failure(() => parseConfigText("state:\n  depth: 3\n", "n.yaml")).message).toContain(
      "state.depth",
    );
    expect(failure(() => parseNodeFlags(["--state-horizon"])).code).toBe("CONFIG_BAD_FLAG");
  });

  it("accepts dataDir as the camel-case spelling and an empty file", () => {
    expect(parseConfigText("dataDir: /x\n", "/f.yaml").dataDir).toBe("/x");
    expect(parseConfigText("", "/f.yaml")).toEqual({});
  });

  it("names an unknown key, a bad section, a file that is not YAML or cannot be read", () => {
    expect(failure(() => parseConfigText("prot: 1\n", "n.yaml"))).toMatchObject({
      code: "CONFIG_UNKNOWN_KEY",
      message: expect.stringContaining("unknown key prot"),
    });
    expect(
      failure(() => parseConfigText("backup:\n  api:\n    enable: true\n", "n.yaml")).message,
    ).toContain("backup.api.enable");
    expect(failure(() => parseConfigText("mining: 3\n", "n.yaml")).message).toContain(
      "mining: expected a mapping",
    );
    expect(failure(() => parseConfigText("port: [1,\n", "n.yaml")).code).toBe("CONFIG_BAD_FILE");
    expect(failure(() => parseConfigText("- a\n- b\n", "n.yaml")).code).toBe("CONFIG_BAD_VALUE");
    expect(failure(() => parseConfigText("data-dir: a\ndataDir: b\n", "n.yaml")).code).toBe(
      "CONFIG_BAD_VALUE",
    );
    expect(failure(() => loadConfigFile("/no/such/file.yaml")).code).toBe("CONFIG_BAD_FILE");
  });
});

describe("[config] mine on demand", () => {
  it("is off by default; auto turns it on for development networks without a reward account", () => {
    expect(resolveNodeOptions({}).mining).toMatchObject({
      onDemand: false,
      onDemandConfirmations: 1,
    });
    const auto = (network: string, account?: string) =>
      resolveNodeOptions({ network, mining: { onDemand: "auto", account } }).mining.onDemand;
    expect(auto("development")).toBe(true);
    expect(auto("test-singleton")).toBe(true);
    expect(auto("development", "k:abc")).toBe(false);
    expect(auto("mainnet01")).toBe(false);
  });

  it("reads --mine-on-demand, --no-mine-on-demand, --on-demand-confirmations and the YAML keys", () => {
    const flags = parseNodeFlags(["--mine-on-demand", "--on-demand-confirmations", "3"]);
    expect(resolveNodeOptions(flags.options).mining).toMatchObject({
      onDemand: true,
      onDemandConfirmations: 3,
    });
    const off = parseNodeFlags(["--no-mine-on-demand"]);
    expect(resolveNodeOptions(off.options).mining.onDemand).toBe(false);
    const file = parseConfigText(
      "mining:\n  on-demand: auto\n  on-demand-confirmations: 0\n",
      "w.yaml",
    );
    expect(resolveNodeOptions(file).mining).toMatchObject({
      onDemand: true,
      onDemandConfirmations: 0,
    });
  });

  it("names the key or flag of a bad value", () => {
    expect(
      failure(() => parseNodeFlags(["--mine-on-demand", "--no-mine-on-demand"])).message,
    ).toMatch(/--mine-on-demand/);
    expect(
      failure(() => resolveNodeOptions({ mining: { onDemand: "sometimes" } })).message,
    ).toMatch(/mining\.on-demand/);
    expect(
      failure(() => resolveNodeOptions({ network: "mainnet01", mining: { onDemand: true } }))
        .message,
    ).toMatch(/mining\.on-demand: only on development/);
    expect(
      failure(() => resolveNodeOptions({ mining: { onDemandConfirmations: 101 } })).message,
    ).toMatch(/mining\.on-demand-confirmations/);
  });
});
