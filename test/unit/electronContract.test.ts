/**
 * The desktop bridge contract: argument parsers accept exactly the documented shapes, and
 * the preload-side API validates before sending and always resolves to a value.
 */
import { describe, expect, it, vi } from "vitest";
import {
  argParsers,
  channels,
  defaultSettings,
  isAbsolutePath,
  parseInvokeEnvelope,
  parseSettings,
  parseSettingsPatch,
} from "../../electron/ipc/contract.ts";
import { createDesktopApi } from "../../electron/ipc/desktopApi.ts";

describe("[electron] bridge contract parsers", () => {
  it("has one parser per channel and names channels area/verb", () => {
    expect(Object.keys(argParsers).sort()).toEqual([...channels].sort());
    for (const c of channels) expect(c, c).toMatch(/^[a-z]+\/[a-z-]+$/);
  });

  it("accepts absolute POSIX and Windows paths only", () => {
    expect(isAbsolutePath("/home/u/data")).toBe(true);
    expect(isAbsolutePath("C:\\Users\\u")).toBe(true);
    expect(isAbsolutePath("\\\\server\\share")).toBe(true);
    expect(isAbsolutePath("relative/dir")).toBe(false);
    expect(isAbsolutePath("")).toBe(false);
    expect(isAbsolutePath("/a\0b")).toBe(false);
    expect(isAbsolutePath(`/${"a".repeat(5000)}`)).toBe(false);
  });

  it("takes no arguments on app/info and settings/read", () => {
    expect(argParsers["app/info"](null).ok).toBe(true);
    expect(argParsers["app/info"](undefined).ok).toBe(true);
    expect(argParsers["settings/read"]({ x: 1 }).ok).toBe(false);
  });

  it("parses dialog/choose-folder arguments", () => {
    expect(argParsers["dialog/choose-folder"](undefined)).toEqual({ ok: true, value: {} });
    expect(argParsers["dialog/choose-folder"]({ title: "Backups", defaultPath: "/tmp" })).toEqual({
      ok: true,
      value: { title: "Backups", defaultPath: "/tmp" },
    });
    expect(argParsers["dialog/choose-folder"]({ defaultPath: "tmp" }).ok).toBe(false);
    expect(argParsers["dialog/choose-folder"]({ title: 3 }).ok).toBe(false);
    expect(argParsers["dialog/choose-folder"]({ multi: true }).ok).toBe(false);
    expect(argParsers["dialog/choose-folder"]("x").ok).toBe(false);
  });

  it("parses shell/open-folder arguments", () => {
    expect(argParsers["shell/open-folder"]({ path: "/var/data" })).toEqual({
      ok: true,
      value: { path: "/var/data" },
    });
    expect(argParsers["shell/open-folder"]({ path: "data" }).ok).toBe(false);
    expect(argParsers["shell/open-folder"]({ path: "/x", extra: 1 }).ok).toBe(false);
    expect(argParsers["shell/open-folder"]("/x").ok).toBe(false);
  });

  it("parses settings patches field by field", () => {
    expect(parseSettingsPatch({ network: "testnet04", port: 0, dataDir: null })).toEqual({
      ok: true,
      value: { network: "testnet04", port: 0, dataDir: null },
    });
    expect(parseSettingsPatch({}).ok).toBe(true);
    const bad: unknown[] = [
      { network: "test-singleton" },
      { port: 70000 },
      { port: 1.5 },
      { dataDir: "rel" },
      { miningThreads: 0 },
      { miningOnStart: "yes" },
      { backupDir: 3 },
      { version: 1 },
      { colour: "red" },
      null,
      [],
    ];
    for (const b of bad) expect(parseSettingsPatch(b).ok, JSON.stringify(b)).toBe(false);
  });

  it("parses a whole settings file and rejects missing fields or other versions", () => {
    expect(parseSettings(defaultSettings)).toEqual({ ok: true, value: defaultSettings });
    const { port: _port, ...withoutPort } = defaultSettings;
    expect(parseSettings(withoutPort)).toEqual({ ok: false, error: "missing field(s): port" });
    expect(parseSettings({ ...defaultSettings, version: 2 }).ok).toBe(false);
  });

  it("reads a settings file from before the public API switches as both off, and parses them", () => {
    const { miningApi: _m, backupApi: _b, ...older } = defaultSettings;
    expect(parseSettings(older)).toEqual({ ok: true, value: defaultSettings });
    const on = parseSettings({ ...defaultSettings, miningApi: true, backupApi: true });
    expect(on.ok && on.value.miningApi && on.value.backupApi).toBe(true);
    expect(parseSettings({ ...defaultSettings, miningApi: "yes" }).ok).toBe(false);
  });

  it("parses invoke envelopes", () => {
    expect(parseInvokeEnvelope({ ok: true, value: 3 })).toEqual({
      ok: true,
      value: { ok: true, value: 3 },
    });
    expect(parseInvokeEnvelope({ ok: false, error: { code: "X", message: "m" } }).ok).toBe(true);
    expect(parseInvokeEnvelope({ ok: false, error: "boom" }).ok).toBe(false);
    expect(parseInvokeEnvelope("ok").ok).toBe(false);
  });
});

describe("[electron] preload desktop API", () => {
  it("sends validated arguments on the channel and returns main's result", async () => {
    const invoke = vi.fn(async () => ({ ok: true, value: "/chosen" }));
    const api = createDesktopApi(invoke);
    await expect(api.chooseFolder({ title: "Pick" })).resolves.toEqual({
      ok: true,
      value: "/chosen",
    });
    expect(invoke).toHaveBeenCalledWith("dialog/choose-folder", { title: "Pick" });
  });

  it("refuses invalid arguments without crossing IPC", async () => {
    const invoke = vi.fn(async () => ({ ok: true, value: null }));
    const api = createDesktopApi(invoke);
    const r = await api.openFolder("not/absolute");
    expect(r).toMatchObject({ ok: false, error: { code: "DESKTOP_IPC_INVALID_ARGS" } });
    // Untyped callers (the renderer at run time) are checked too.
    const r2 = await Reflect.apply(api.writeSettings, api, [{ port: "1848" }]);
    expect(r2).toMatchObject({ ok: false, error: { code: "DESKTOP_IPC_INVALID_ARGS" } });
    expect(invoke).not.toHaveBeenCalled();
  });

  it("turns a failed delivery or a malformed reply into an error value", async () => {
    const throwing = createDesktopApi(async () => {
      throw new Error("Error invoking remote method");
    });
    await expect(throwing.appInfo()).resolves.toMatchObject({
      ok: false,
      error: { code: "DESKTOP_IPC_FAILED" },
    });
    const garbled = createDesktopApi(async () => "nope");
    await expect(garbled.readSettings()).resolves.toMatchObject({
      ok: false,
      error: { code: "DESKTOP_IPC_FAILED" },
    });
  });

  it("passes main's error values through unchanged", async () => {
    const api = createDesktopApi(async () => ({
      ok: false,
      error: { code: "DESKTOP_NOT_A_DIRECTORY", message: "/x is not a folder." },
    }));
    await expect(api.openFolder("/x")).resolves.toEqual({
      ok: false,
      error: { code: "DESKTOP_NOT_A_DIRECTORY", message: "/x is not a folder." },
    });
  });
});
