/**
 * The bridge handlers on a real temporary directory: folders only for "open folder",
 * cancel → null for the folder picker, settings read and written through the store.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DesktopErrorCode, isDesktopError } from "../../electron/errors.ts";
import { defaultSettings } from "../../electron/ipc/contract.ts";
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
  it("opens an existing folder", async () => {
    const openPath = vi.fn(async () => "");
    const h = createDesktopHandlers(deps({ openPath }));
    await expect(h["shell/open-folder"]({ path: dir })).resolves.toBeNull();
    expect(openPath).toHaveBeenCalledWith(dir);
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
