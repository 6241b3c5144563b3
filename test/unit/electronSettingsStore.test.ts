/**
 * The settings file: defaults when absent, invalid files set aside, atomic writes, and a
 * failed write leaves the settings in memory unchanged.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DesktopErrorCode, isDesktopError } from "../../electron/errors.ts";
import { defaultSettings } from "../../electron/ipc/contract.ts";
import { SettingsStore } from "../../electron/settings/settingsStore.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "weft-settings-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("[electron] SettingsStore", () => {
  it("uses the defaults when there is no file, without writing one", () => {
    const file = join(dir, "settings.json");
    expect(new SettingsStore(file, { warn: vi.fn() }).read()).toEqual(defaultSettings);
    expect(existsSync(file)).toBe(false);
  });

  it("writes atomically, creating the folder, and reads back what it wrote", () => {
    const file = join(dir, "nested", "settings.json");
    const store = new SettingsStore(file, { warn: vi.fn() });
    store.write({ network: "testnet04", port: 0 });
    expect(existsSync(`${file}.tmp`)).toBe(false);
    const again = new SettingsStore(file, { warn: vi.fn() });
    expect(again.read()).toEqual({ ...defaultSettings, network: "testnet04", port: 0 });
  });

  it("sets an invalid file aside and falls back to the defaults", () => {
    const file = join(dir, "settings.json");
    for (const text of ["{not json", JSON.stringify({ ...defaultSettings, port: -1 })]) {
      writeFileSync(file, text);
      const warn = vi.fn();
      const store = new SettingsStore(file, { warn });
      expect(store.read(), text).toEqual(defaultSettings);
      expect(warn.mock.calls[0]?.[1], text).toEqual({ code: DesktopErrorCode.SettingsInvalid });
      expect(readFileSync(`${file}.invalid`, "utf8")).toBe(text);
      expect(existsSync(file)).toBe(false);
    }
  });

  it("keeps the settings in memory when the file cannot be written", () => {
    // A directory where the file should be makes the rename fail.
    const file = join(dir, "settings.json");
    const store = new SettingsStore(file, { warn: vi.fn() });
    mkdirSync(file);
    writeFileSync(join(file, "keep"), "x");
    const e = (() => {
      try {
        store.write({ port: 1 });
        return null;
      } catch (x) {
        return x;
      }
    })();
    expect(isDesktopError(e, DesktopErrorCode.SettingsWriteFailed)).toBe(true);
    expect(store.read()).toEqual(defaultSettings);
  });
});
