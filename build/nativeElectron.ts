/**
 * Builds better-sqlite3 for Electron's ABI into dist/native/electron/better_sqlite3.node,
 * from a copy of node_modules/better-sqlite3, so the Node build the tests use is never
 * touched (docs/desktop.md §6). The desktop app passes that file to better-sqlite3 as its
 * `nativeBinding`; electron-builder ships it under resources/native/.
 *
 * It first asks prebuild-install for better-sqlite3's published Electron binary, then
 * falls back to compiling against Electron's headers with node-gyp. Both fetch from the
 * network, so this runs only where packages are built (`npm run build:native`), never in
 * tests or CI.
 *
 * Usage: npx tsx build/nativeElectron.ts [--arch x64|arm64] [--force]
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export type NativeTarget = {
  readonly electronVersion: string;
  readonly platform: NodeJS.Platform;
  readonly arch: string;
};

export type Command = { readonly bin: string; readonly args: readonly string[] };

/** The commands tried in order inside the staged copy; the first that succeeds wins. */
export function nativeBuildCommands(binDir: string, t: NativeTarget): Command[] {
  const exe = (name: string) => join(binDir, t.platform === "win32" ? `${name}.cmd` : name);
  return [
    {
      bin: exe("prebuild-install"),
      args: [
        "--runtime=electron",
        `--target=${t.electronVersion}`,
        `--arch=${t.arch}`,
        `--platform=${t.platform}`,
      ],
    },
    {
      bin: exe("node-gyp"),
      args: [
        "rebuild",
        "--release",
        "--runtime=electron",
        `--target=${t.electronVersion}`,
        `--arch=${t.arch}`,
        "--dist-url=https://electronjs.org/headers",
      ],
    },
  ];
}

/** What a finished build records next to the binary, so a stale one is rebuilt. */
export type NativeStamp = NativeTarget & { readonly betterSqlite3: string };

export function isStampCurrent(stampText: string | null, wanted: NativeStamp): boolean {
  if (stampText === null) return false;
  try {
    const s: unknown = JSON.parse(stampText);
    return (
      typeof s === "object" &&
      s !== null &&
      (Object.keys(wanted) as (keyof NativeStamp)[]).every((k) => Reflect.get(s, k) === wanted[k])
    );
  } catch {
    return false;
  }
}

function versionOf(pkgJson: string): string {
  const pkg: unknown = JSON.parse(readFileSync(pkgJson, "utf8"));
  const v = typeof pkg === "object" && pkg !== null ? Reflect.get(pkg, "version") : undefined;
  if (typeof v !== "string") throw new Error(`no version in ${pkgJson}`);
  return v;
}

function main(argv: string[]): number {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const archIndex = argv.indexOf("--arch");
  const target: NativeTarget = {
    electronVersion: versionOf(join(root, "node_modules", "electron", "package.json")),
    platform: process.platform,
    arch: archIndex >= 0 ? (argv[archIndex + 1] ?? process.arch) : process.arch,
  };
  const stamp: NativeStamp = {
    ...target,
    betterSqlite3: versionOf(join(root, "node_modules", "better-sqlite3", "package.json")),
  };
  const outDir = join(root, "dist", "native", "electron");
  const outFile = join(outDir, "better_sqlite3.node");
  const stampFile = join(outDir, "build.json");
  const current = existsSync(stampFile) ? readFileSync(stampFile, "utf8") : null;
  if (!argv.includes("--force") && existsSync(outFile) && isStampCurrent(current, stamp)) {
    console.log(`better-sqlite3 for Electron ${target.electronVersion} is up to date: ${outFile}`);
    return 0;
  }
  const stage = join(root, "dist", "native", "stage", "better-sqlite3");
  rmSync(stage, { recursive: true, force: true });
  cpSync(join(root, "node_modules", "better-sqlite3"), stage, {
    recursive: true,
    filter: (src) => !src.includes(`${join("better-sqlite3", "build")}`),
  });
  const binDir = join(root, "node_modules", ".bin");
  for (const cmd of nativeBuildCommands(binDir, target)) {
    console.log(`> ${cmd.bin} ${cmd.args.join(" ")}`);
    const r = spawnSync(cmd.bin, cmd.args, { cwd: stage, stdio: "inherit" });
    const built = join(stage, "build", "Release", "better_sqlite3.node");
    if (r.status === 0 && existsSync(built)) {
      mkdirSync(outDir, { recursive: true });
      cpSync(built, outFile);
      writeFileSync(stampFile, `${JSON.stringify(stamp, null, 2)}\n`);
      console.log(`wrote ${outFile}`);
      return 0;
    }
  }
  console.error("Could not build better-sqlite3 for Electron (see the output above).");
  return 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2));
}
