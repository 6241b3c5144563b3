/**
 * The main-process dispatcher: sender checks, argument checks, handler errors as values,
 * registration of every channel on a fake ipcMain that matches the contract's type.
 */
import { describe, expect, it, vi } from "vitest";
import { DesktopError, DesktopErrorCode } from "../../electron/errors.ts";
import { channels, defaultSettings } from "../../electron/ipc/contract.ts";
import {
  type InvokeEventLike,
  type InvokeHandlers,
  type IpcMainLike,
  registerInvokeHandlers,
} from "../../electron/ipc/ipcMain.ts";

const APP = "http://127.0.0.1:1848";

function fakeIpcMain() {
  const handlers = new Map<string, (event: InvokeEventLike, ...args: unknown[]) => unknown>();
  const ipc: IpcMainLike = {
    handle: (channel, listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel) => {
      handlers.delete(channel);
    },
  };
  const invoke = (channel: string, url: string | null, args: unknown) => {
    const h = handlers.get(channel);
    if (h === undefined) throw new Error(`no handler for ${channel}`);
    return h({ senderFrame: url === null ? null : { url } }, args);
  };
  return { ipc, handlers, invoke };
}

function handlers(overrides: Partial<InvokeHandlers> = {}): InvokeHandlers {
  return {
    "app/info": async () => ({ version: "1.0.0", dataDir: "/d", logFile: "/l" }),
    "dialog/choose-folder": async () => "/chosen",
    "shell/open-folder": async () => null,
    "settings/read": async () => defaultSettings,
    "settings/write": async (patch) => ({ ...defaultSettings, ...patch }),
    ...overrides,
  };
}

const log = { warn: vi.fn() };
const options = { isTrustedUrl: (url: string) => url.startsWith(`${APP}/`), log };

describe("[electron] ipcMain dispatcher", () => {
  it("registers every channel and removes them again", () => {
    const { ipc, handlers: registered } = fakeIpcMain();
    const unregister = registerInvokeHandlers(ipc, handlers(), options);
    expect([...registered.keys()].sort()).toEqual([...channels].sort());
    unregister();
    expect(registered.size).toBe(0);
  });

  it("answers the app's own pages with a value", async () => {
    const { ipc, invoke } = fakeIpcMain();
    registerInvokeHandlers(ipc, handlers(), options);
    await expect(invoke("settings/write", `${APP}/app/`, { port: 0 })).resolves.toEqual({
      ok: true,
      value: { ...defaultSettings, port: 0 },
    });
  });

  it("refuses senders off the app origin and destroyed frames", async () => {
    const { ipc, invoke } = fakeIpcMain();
    const write = vi.fn(async () => defaultSettings);
    registerInvokeHandlers(ipc, handlers({ "settings/write": write }), options);
    for (const url of ["https://evil.example/", "data:text/html,x", "http://127.0.0.1:9999/app/"]) {
      await expect(invoke("settings/write", url, { port: 0 }), url).resolves.toMatchObject({
        ok: false,
        error: { code: DesktopErrorCode.IpcForbiddenSender },
      });
    }
    await expect(invoke("settings/write", null, { port: 0 })).resolves.toMatchObject({
      ok: false,
      error: { code: DesktopErrorCode.IpcForbiddenSender },
    });
    expect(write).not.toHaveBeenCalled();
  });

  it("validates arguments in main even when the preload was bypassed", async () => {
    const { ipc, invoke } = fakeIpcMain();
    const open = vi.fn(async () => null);
    registerInvokeHandlers(ipc, handlers({ "shell/open-folder": open }), options);
    await expect(
      invoke("shell/open-folder", `${APP}/app/`, { path: "../etc" }),
    ).resolves.toMatchObject({
      ok: false,
      error: { code: DesktopErrorCode.IpcInvalidArgs },
    });
    expect(open).not.toHaveBeenCalled();
  });

  it("returns coded handler errors as values and hides unexpected failures", async () => {
    const { ipc, invoke } = fakeIpcMain();
    registerInvokeHandlers(
      ipc,
      handlers({
        "shell/open-folder": async ({ path }) => {
          throw new DesktopError(
            { code: DesktopErrorCode.NotADirectory, path },
            `${path} is not a folder.`,
          );
        },
        "app/info": async () => {
          throw new TypeError("secret internal detail");
        },
      }),
      options,
    );
    await expect(invoke("shell/open-folder", `${APP}/app/`, { path: "/f" })).resolves.toEqual({
      ok: false,
      error: { code: DesktopErrorCode.NotADirectory, message: "/f is not a folder." },
    });
    const r = await invoke("app/info", `${APP}/app/`, null);
    expect(r).toMatchObject({ ok: false, error: { code: DesktopErrorCode.IpcFailed } });
    expect(JSON.stringify(r)).not.toContain("secret internal detail");
    expect(log.warn).toHaveBeenCalledWith(
      "IPC handler failed",
      expect.objectContaining({ channel: "app/info" }),
    );
  });
});
