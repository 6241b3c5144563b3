/**
 * Packaging (build/): the electron-builder configuration passes electron-builder's own
 * schema and says what docs/desktop.md promises (targets, the native module outside the
 * asar, no in-place rebuild, fuses); the icon is big enough; the Electron build of
 * better-sqlite3 is made in a staged copy with the right commands. Building packages needs
 * the Electron binary; what goes into them is checked by packageContents.process.test.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { isStampCurrent, nativeBuildCommands } from "../../build/nativeElectron.ts";

const repo = resolve(import.meta.dirname, "..", "..");
const config: Record<string, unknown> = parse(
  readFileSync(join(repo, "build", "electron-builder.yml"), "utf8"),
);

describe("[build] electron-builder configuration", () => {
  it("passes electron-builder's schema", async () => {
    const require = createRequire(join(repo, "node_modules", "electron-builder", "package.json"));
    const appBuilder = require.resolve("app-builder-lib/out/util/config/config.js");
    const { validateConfiguration } = require(appBuilder) as {
      validateConfiguration(c: unknown, log: unknown): Promise<void>;
    };
    const { DebugLogger } = require(require.resolve("builder-util")) as {
      DebugLogger: new (on: boolean) => unknown;
    };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it("builds AppImage and deb, dmg, and nsis packages", () => {
    expect(config.linux).toMatchObject({ target: ["AppImage", "deb"] });
    expect(config.mac).toMatchObject({ target: ["dmg"] });
    expect(config.win).toMatchObject({ target: ["nsis"] });
  });

  it("keeps the native module out of the asar and never rebuilds node_modules in place", () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining(["**/*.node", "node_modules/better-sqlite3/**"]),
    );
    expect(config.npmRebuild).toBe(false);
    expect(config.extraResources).toEqual([
      { from: "dist/native/electron/better_sqlite3.node", to: "native/better_sqlite3.node" },
    ]);
  });

  it("ships the compiled shell and node, the built UI and the preload, starting at the compiled entry", () => {
    expect(config.files).toEqual(
      expect.arrayContaining([
        "bin/weft.js",
        "dist/src-node/**/*",
        "dist/electron/**/*",
        "dist/renderer/**/*",
        "!**/*.map",
        "!**/*.ts",
      ]),
    );
    expect(config.files).not.toContain("src-node/**/*");
    expect(config.extraMetadata).toEqual({ main: "dist/electron/desktopEntry.js" });
    expect(existsSync(join(repo, "electron", "desktopEntry.ts"))).toBe(true);
  });

  it("flips the hardening fuses", () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
    });
  });

  it("has a square icon of at least 512 px", () => {
    const png = readFileSync(join(repo, "build", "icon.png"));
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    expect(width).toBe(height);
    expect(width).toBeGreaterThanOrEqual(512);
  });
});

describe("[build] better-sqlite3 for Electron", () => {
  const target = { electronVersion: "45.5.0", platform: "linux", arch: "x64" } as const;

  it("tries the published Electron binary first, then compiles against Electron's headers", () => {
    const [prebuilt, compile] = nativeBuildCommands("/repo/node_modules/.bin", target);
    expect(prebuilt).toEqual({
      bin: "/repo/node_modules/.bin/prebuild-install",
      args: ["--runtime=electron", "--target=45.5.0", "--arch=x64", "--platform=linux"],
    });
    expect(compile?.bin).toBe("/repo/node_modules/.bin/node-gyp");
    expect(compile?.args).toEqual(
      expect.arrayContaining([
        "rebuild",
        "--runtime=electron",
        "--target=45.5.0",
        "--dist-url=https://electronjs.org/headers",
      ]),
    );
    expect(
      nativeBuildCommands("C:\\r", { ...target, platform: "win32" })[0]?.bin.endsWith(
        "prebuild-install.cmd",
      ),
    ).toBe(true);
  });

  it("rebuilds when Electron, the platform, the architecture or better-sqlite3 changed", () => {
    const stamp = { ...target, betterSqlite3: "12.9.0" };
    expect(isStampCurrent(JSON.stringify(stamp), stamp)).toBe(true);
    expect(isStampCurrent(JSON.stringify({ ...stamp, electronVersion: "45.4.0" }), stamp)).toBe(
      false,
    );
    expect(isStampCurrent(JSON.stringify({ ...stamp, arch: "arm64" }), stamp)).toBe(false);
    expect(isStampCurrent("{", stamp)).toBe(false);
    expect(isStampCurrent(null, stamp)).toBe(false);
  });
});
