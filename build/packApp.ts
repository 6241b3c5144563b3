/**
 * Packs the app folder exactly as `npm run dist` does, but offline and without Electron's
 * binary: electron-builder's `dir` target for Linux with the real configuration
 * (build/electron-builder.yml), except for a stand-in Electron distribution (a folder with
 * a placeholder `electron` executable), no fuse flipping (it patches the real binary) and a
 * placeholder for the Electron build of better-sqlite3 (`npm run build:native` needs the
 * network). The result is `<out>/linux-unpacked/resources/app.asar` (+ `.unpacked`), the
 * same archive the AppImage and deb packages carry. Used by test/unit/packageContents.process.test.ts.
 *
 * Needs the compiled output first (`npm run build`).
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build, Platform } from "electron-builder";
import { parse } from "yaml";

export type PackedApp = {
  /** `…/resources`: holds `app.asar`, `app.asar.unpacked/` and `native/`. */
  readonly resources: string;
  readonly asar: string;
};

export async function packAppWithoutElectron(repo: string, work: string): Promise<PackedApp> {
  const config = parse(readFileSync(join(repo, "build", "electron-builder.yml"), "utf8")) as Record<
    string,
    unknown
  >;
  const electronVersion = (
    createRequire(join(repo, "package.json"))("electron/package.json") as { version: string }
  ).version;
  const standIn = join(work, "electron-dist");
  mkdirSync(join(standIn, "resources"), { recursive: true });
  writeFileSync(join(standIn, "electron"), "#!/bin/sh\necho 'stand-in for Electron'\n");
  chmodSync(join(standIn, "electron"), 0o755);
  writeFileSync(join(standIn, "version"), electronVersion);
  const native = join(work, "native-placeholder.node");
  writeFileSync(native, "placeholder for the Electron build of better-sqlite3\n");
  const output = join(work, "out");
  const extraResources = (config.extraResources as { from: string; to: string }[]).map((r) =>
    r.to === "native/better_sqlite3.node" ? { ...r, from: native } : r,
  );
  await build({
    projectDir: repo,
    targets: Platform.LINUX.createTarget("dir"),
    publish: "never",
    config: {
      ...config,
      electronVersion,
      electronDist: standIn,
      electronFuses: null,
      extraResources,
      directories: { ...(config.directories as object), output },
    },
  });
  const resources = join(output, "linux-unpacked", "resources");
  return { resources, asar: join(resources, "app.asar") };
}
