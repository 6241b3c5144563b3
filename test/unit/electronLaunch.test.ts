/**
 * `npm start`'s launcher: finding an installed Electron binary without importing the
 * electron package (which would try to download one), and its arguments. Also keeps the
 * rule that only main.ts and preload.ts import electron at run time.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { findElectronBinary, launch, parseLaunchArgs } from "../../electron/launch.ts";

const tmp = mkdtempSync(join(tmpdir(), "weft-launch-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("[electron] launcher", () => {
  it("finds the binary named by node_modules/electron/path.txt, only if it exists", () => {
    const repo = join(tmp, "repo");
    const pkg = join(repo, "node_modules", "electron");
    mkdirSync(pkg, { recursive: true });
    expect(findElectronBinary(repo)).toBeNull();
    writeFileSync(join(pkg, "path.txt"), "electron");
    expect(findElectronBinary(repo)).toBeNull();
    mkdirSync(join(pkg, "dist"));
    writeFileSync(join(pkg, "dist", "electron"), "");
    expect(findElectronBinary(repo)).toBe(join(pkg, "dist", "electron"));
  });

  it("says how to choose another port when the headless node's port is in use", async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, "127.0.0.1", r));
    const port = (taken.address() as AddressInfo).port;
    const said: string[] = [];
    const error = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => {
      said.push(a.join(" "));
    });
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      const args = ["--headless", "--network", "development", "--port", String(port)];
      const code = await launch([...args, "--data-dir", join(tmp, "taken")], tmp);
      expect(code).toBe(1);
      expect(said.join("\n")).toContain(`uses port ${port}`);
      expect(said.join("\n")).toContain(`npm start -- --headless --port ${port + 1}`);
    } finally {
      error.mockRestore();
      log.mockRestore();
      taken.close();
    }
  });

  it("parses its options", () => {
    expect(parseLaunchArgs([])).toEqual({
      ok: true,
      value: { headless: false, network: "development", dataDir: null, port: 1848 },
    });
    expect(
      parseLaunchArgs([
        "--headless",
        "--network",
        "testnet04",
        "--port",
        "0",
        "--data-dir",
        "/tmp/d",
      ]),
    ).toEqual({
      ok: true,
      value: { headless: true, network: "testnet04", dataDir: "/tmp/d", port: 0 },
    });
    expect(parseLaunchArgs(["--headless", "--renderer-dir", "/tmp/ui"])).toEqual({
      ok: true,
      value: {
        headless: true,
        network: "development",
        dataDir: null,
        port: 1848,
        rendererDir: "/tmp/ui",
      },
    });
    expect(
      parseLaunchArgs(["--headless", "--settings", "/tmp/s.json", "--data-dir", "/d"]),
    ).toEqual({
      ok: true,
      value: {
        headless: true,
        network: "development",
        dataDir: "/d",
        port: 1848,
        settingsFile: "/tmp/s.json",
      },
    });
    for (const bad of [
      ["--settings"],
      ["--settings", "/tmp/s.json", "--port", "0"],
      ["--network", "testnet04", "--settings", "/tmp/s.json"],
      ["--renderer-dir"],
      ["--network", "moon"],
      ["--port", "70000"],
      ["--port"],
      ["--data-dir"],
      ["--fast"],
    ]) {
      expect(parseLaunchArgs(bad).ok, bad.join(" ")).toBe(false);
    }
  });
});

describe("[electron] imports of electron", () => {
  const dir = resolve(import.meta.dirname, "..", "..", "electron");
  const files = (d: string): string[] =>
    readdirSync(d).flatMap((n) => {
      const p = join(d, n);
      return statSync(p).isDirectory() ? files(p) : /\.(ts|js)$/.test(n) ? [p] : [];
    });

  it("happen at run time only in main.ts and preload.ts", () => {
    const importers = files(dir)
      .filter((f) => /^import\s+(?!type\b)[^;]*from\s+"electron"/m.test(readFileSync(f, "utf8")))
      .map((f) => relative(dir, f))
      .sort();
    expect(importers).toEqual(["main.ts", "preload.ts"]);
  });

  it("reach the node only through nodeHost.ts", () => {
    const importers = files(dir)
      .filter((f) => readFileSync(f, "utf8").includes("src-node/node"))
      .map((f) => relative(dir, f));
    expect(importers).toEqual(["nodeHost.ts"]);
  });
});
