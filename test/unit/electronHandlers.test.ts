/**
 * The bridge handlers on a real temporary directory: "open folder" opens only the app's
 * folders (data, backups, logs, picked in this session, and folders inside them), never a
 * file, an application bundle or a network path (issue 15 finding 8); cancel → null for the
 * folder picker, settings read and written through the store.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DesktopErrorCode, isDesktopError } from "../../electron/errors.ts";
import { argParsers, defaultSettings } from "../../electron/ipc/contract.ts";
import { createDesktopHandlers, type HandlerDeps } from "../../electron/ipc/handlers.ts";
import { SettingsStore } from "../../electron/settings/settingsStore.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "weft-handlers-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function deps(over: Partial<HandlerDeps> = {}): HandlerDeps {
  return {
    pickFolder: async () => null,
    openPath: async () => "",
    settings: new SettingsStore(join(dir, "settings.json"), { warn: () => {} }),
    appInfo: () => ({
      version: "0.1.0",
      dataDir: join(dir, "data"),
      logFile: join(dir, "weft.log"),
    }),
    ...over,
  };
}

describe("[electron] bridge handlers", () => {
  it("opens the data folder, the log folder and folders inside them", async () => {
    const openPath = vi.fn(async () => "");
    const h = createDesktopHandlers(deps({ openPath }));
    const data = join(dir, "data");
    mkdirSync(join(data, "development"), { recursive: true });
    await expect(h["shell/open-folder"]({ path: data })).resolves.toBeNull();
    expect(openPath).toHaveBeenCalledWith(data);
    await expect(h["shell/open-folder"]({ path: join(data, "development") })).resolves.toBeNull();
    // The log file's folder.
    await expect(h["shell/open-folder"]({ path: dir })).resolves.toBeNull();
  });

  it("opens the backup folder of the settings and folders picked in this session only", async () => {
    const openPath = vi.fn(async () => "");
    const elsewhere = mkdtempSync(join(tmpdir(), "weft-handlers-other-"));
    const picked = mkdtempSync(join(tmpdir(), "weft-handlers-picked-"));
    try {
      const d = deps({ openPath, pickFolder: async () => picked });
      const h = createDesktopHandlers(d);
      const refused = async (path: string) => {
        const e = await h["shell/open-folder"]({ path }).catch((x: unknown) => x);
        expect(isDesktopError(e, DesktopErrorCode.FolderNotAllowed), path).toBe(true);
      };
      await refused(elsewhere);
      await refused(picked);
      await refused("/");
      d.settings.write({ backupDir: elsewhere });
      await expect(h["shell/open-folder"]({ path: elsewhere })).resolves.toBeNull();
      await h["dialog/choose-folder"]({});
      await expect(h["shell/open-folder"]({ path: picked })).resolves.toBeNull();
      // A new session (new handlers) has picked nothing yet.
      const next = createDesktopHandlers(deps({ openPath }));
      const e = await next["shell/open-folder"]({ path: picked }).catch((x: unknown) => x);
      expect(isDesktopError(e, DesktopErrorCode.FolderNotAllowed)).toBe(true);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
      rmSync(picked, { recursive: true, force: true });
    }
  });

  it("refuses application bundles and shell folders inside the app's folders, and links to them", async () => {
    const openPath = vi.fn(async () => "");
    const h = createDesktopHandlers(deps({ openPath }));
    const data = join(dir, "data");
    const bundles = ["Evil.app", "Thing.APP", "x.prefPane", "y.workflow", "z.pkg"].map((n) =>
      join(data, n),
    );
    const shell = join(data, "Control.{ED7BA470-8E54-465E-825C-99712043E01C}");
    for (const b of [...bundles, shell]) mkdirSync(join(b, "Contents"), { recursive: true });
    const link = join(data, "innocent");
    symlinkSync(bundles[0] as string, link);
    for (const path of [...bundles, shell, link]) {
      const e = await h["shell/open-folder"]({ path }).catch((x: unknown) => x);
      expect(isDesktopError(e, DesktopErrorCode.FolderNotAllowed), path).toBe(true);
    }
    // A folder inside a bundle does not launch it.
    await expect(
      h["shell/open-folder"]({ path: join(bundles[0] as string, "Contents") }),
    ).resolves.toBeNull();
    expect(openPath).toHaveBeenCalledTimes(1);
  });

  it("refuses network and device paths before they reach main", () => {
    for (const path of [
      "\\\\server\\share",
      "//server/share",
      "\\\\?\\C:\\x",
      "\\\\.\\pipe\\x",
      "\\\\?\\UNC\\server\\share",
    ]) {
      expect(argParsers["shell/open-folder"]({ path }).ok, path).toBe(false);
    }
    expect(argParsers["shell/open-folder"]({ path: "C:\\Users\\u" }).ok).toBe(true);
  });

  it("refuses files and missing paths, so nothing is ever launched", async () => {
    const openPath = vi.fn(async () => "");
    const h = createDesktopHandlers(deps({ openPath }));
    const file = join(dir, "run.sh");
    writeFileSync(file, "#!/bin/sh\n");
    for (const path of [file, join(dir, "missing")]) {
      const e = await h["shell/open-folder"]({ path }).catch((x: unknown) => x);
      expect(isDesktopError(e, DesktopErrorCode.NotADirectory), path).toBe(true);
    }
    expect(openPath).not.toHaveBeenCalled();
  });

  it("reports the shell's failure to open a folder", async () => {
    const h = createDesktopHandlers(deps({ openPath: async () => "no file manager" }));
    const e = await h["shell/open-folder"]({ path: dir }).catch((x: unknown) => x);
    expect(isDesktopError(e, DesktopErrorCode.OpenFailed)).toBe(true);
  });

  it("returns the picked folder, or null when the picker is cancelled", async () => {
    const pickFolder = vi.fn(async () => "/picked");
    await expect(
      createDesktopHandlers(deps({ pickFolder }))["dialog/choose-folder"]({ title: "T" }),
    ).resolves.toBe("/picked");
    expect(pickFolder).toHaveBeenCalledWith({ title: "T" });
    await expect(createDesktopHandlers(deps())["dialog/choose-folder"]({})).resolves.toBeNull();
  });

  it("reads and writes settings through the file", async () => {
    const d = deps();
    const h = createDesktopHandlers(d);
    await expect(h["settings/read"](null)).resolves.toEqual(defaultSettings);
    const next = await h["settings/write"]({ backupDir: dir, miningThreads: 4 });
    expect(next).toEqual({ ...defaultSettings, backupDir: dir, miningThreads: 4 });
    expect(JSON.parse(readFileSync(join(dir, "settings.json"), "utf8"))).toEqual(next);
    await expect(h["app/info"](null)).resolves.toMatchObject({ version: "0.1.0" });
  });
});
