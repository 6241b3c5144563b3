/**
 * The main process composed with a fake `electron` module and a fake node host: the
 * single-instance lock, the window and its security settings, the menu, the bridge, the
 * node's start-up (success and failure), the window brought to the front by a dapp's signing
 * request and by a second launch, and the clean shutdown.
 */
import type { EventEmitter } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, ApiErrorCode } from "../../src-node/api/errors.ts";

type Listener = (...args: unknown[]) => unknown;

const fake = vi.hoisted(() => {
  class FakeWindow {
    static all: FakeWindow[] = [];
    readonly options: Record<string, unknown>;
    readonly loaded: string[] = [];
    readonly events = new Map<string, Listener>();
    destroyed = false;
    shown = false;
    constructor(options: Record<string, unknown>) {
      this.options = options;
      FakeWindow.all.push(this);
    }
    static getAllWindows() {
      return FakeWindow.all.filter((w) => !w.destroyed);
    }
    async loadURL(url: string) {
      this.loaded.push(url);
    }
    once(event: string, l: Listener) {
      this.events.set(event, l);
    }
    on(event: string, l: Listener) {
      this.events.set(event, l);
    }
    isDestroyed() {
      return this.destroyed;
    }
    minimized = false;
    focused = 0;
    isMinimized() {
      return this.minimized;
    }
    restore() {
      this.minimized = false;
    }
    isVisible() {
      return this.shown && !this.minimized;
    }
    show() {
      this.shown = true;
    }
    focus() {
      this.focused += 1;
    }
  }
  return {
    FakeWindow,
    state: {
      lock: true,
      userData: "",
      appRoot: "",
      quit: 0,
      menuTemplate: null as unknown,
      ipc: new Map<string, Listener>(),
      permissionRequest: null as Listener | null,
      beforeRequest: null as Listener | null,
      beforeSendHeaders: null as Listener | null,
    },
    startNode: (..._args: unknown[]): Promise<unknown> => Promise.reject(new Error("not set")),
  };
});

vi.mock("electron", async () => {
  const { EventEmitter: Emitter } = await import("node:events");
  const app = Object.assign(new Emitter(), {
    setName: () => {},
    enableSandbox: () => {},
    requestSingleInstanceLock: () => fake.state.lock,
    quit: () => {
      fake.state.quit += 1;
    },
    whenReady: () => Promise.resolve(),
    getPath: (name: string) => join(fake.state.userData, name === "logs" ? "logs" : ""),
    getAppPath: () => fake.state.appRoot,
    getVersion: () => "0.1.0",
    isPackaged: false,
  });
  return {
    app,
    BrowserWindow: fake.FakeWindow,
    Menu: {
      buildFromTemplate: (t: unknown) => ({ template: t }),
      setApplicationMenu: (m: { template: unknown }) => {
        fake.state.menuTemplate = m.template;
      },
    },
    ipcMain: {
      handle: (channel: string, l: Listener) => fake.state.ipc.set(channel, l),
      removeHandler: (channel: string) => fake.state.ipc.delete(channel),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: Listener) => {
          fake.state.permissionRequest = h;
        },
        setPermissionCheckHandler: () => {},
        setDevicePermissionHandler: () => {},
        webRequest: {
          onBeforeRequest: (l: Listener) => {
            fake.state.beforeRequest = l;
          },
          onHeadersReceived: () => {},
          onBeforeSendHeaders: (l: Listener) => {
            fake.state.beforeSendHeaders = l;
          },
        },
        on: () => {},
      },
    },
    dialog: { showOpenDialog: async () => ({ canceled: true, filePaths: [] }) },
    shell: { openPath: async () => "" },
  };
});

vi.mock("../../electron/nodeHost.ts", async () => ({
  startNode: (...args: unknown[]) => fake.startNode(...args),
  portInUse: (await import("../../src-node/api/errors.ts")).portInUse,
}));

const electron = await import("electron");
const { startDesktop } = await import("../../electron/main.ts");
const appEvents: EventEmitter = electron.app;

const APP_URL = "http://127.0.0.1:41234/app/";
const BASE_URL = "http://127.0.0.1:41234/ledger/0.0/development";

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "weft-main-"));
  fake.state.userData = join(root, "userData");
  fake.state.appRoot = join(root, "app");
  fake.state.lock = true;
  fake.state.quit = 0;
  fake.state.menuTemplate = null;
  fake.state.ipc.clear();
  fake.FakeWindow.all = [];
  appEvents.removeAllListeners();
  const native = join(fake.state.appRoot, "dist", "native", "electron");
  mkdirSync(native, { recursive: true });
  writeFileSync(join(native, "better_sqlite3.node"), "");
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function decodeDataUrl(url: string): string {
  return decodeURIComponent(url.slice(url.indexOf(",") + 1));
}

function nodeHandle() {
  return { baseUrl: BASE_URL, appUrl: APP_URL, close: vi.fn(async () => {}) };
}

describe("[electron] main process", () => {
  it("quits at once when another instance holds the lock", async () => {
    fake.state.lock = false;
    const startNode = vi.fn();
    fake.startNode = startNode;
    await startDesktop();
    expect(fake.state.quit).toBe(1);
    expect(startNode).not.toHaveBeenCalled();
    expect(fake.FakeWindow.all).toHaveLength(0);
  });

  it("starts the node and shows its UI in a secure window", async () => {
    const node = nodeHandle();
    const startNode = vi.fn(async () => node);
    fake.startNode = startNode;
    await startDesktop();

    expect(startNode).toHaveBeenCalledWith(
      expect.objectContaining({
        network: "development",
        dataDir: join(fake.state.userData, "data"),
        host: "127.0.0.1",
        port: 1848,
        // Mine on demand is the app's default on development networks (docs/mining.md).
        mining: { enabled: false, threads: 1, onDemand: "auto", apiEnabled: false },
        backup: undefined,
        sqliteNativeBinding: join(
          fake.state.appRoot,
          "dist",
          "native",
          "electron",
          "better_sqlite3.node",
        ),
      }),
    );
    // The node's app token: made here, sent by the window as a header, never as a page cookie.
    const options = (startNode.mock.calls[0] as unknown[])[0] as {
      appToken: string;
      appTokenCookie: boolean;
    };
    expect(options.appToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(options.appTokenCookie).toBe(false);
    const sent = (url: string) => {
      let headers: Record<string, string> = {};
      fake.state.beforeSendHeaders?.(
        { url, requestHeaders: { Accept: "*/*" } },
        (r: { requestHeaders: Record<string, string> }) => {
          headers = r.requestHeaders;
        },
      );
      return headers;
    };
    expect(sent(`${APP_URL}api/mining`)).toEqual({
      Accept: "*/*",
      "X-Weft-App-Token": options.appToken,
    });
    expect(sent("http://127.0.0.1:9999/app/api/mining")).toEqual({ Accept: "*/*" });
    const [window] = fake.FakeWindow.all;
    expect(window?.options.webPreferences).toMatchObject({
      preload: join(fake.state.appRoot, "dist", "electron", "preload.cjs"),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    expect(window?.loaded[0]?.startsWith("data:text/html")).toBe(true);
    expect(window?.loaded.at(-1)).toBe(APP_URL);
    window?.events.get("ready-to-show")?.();
    expect(window?.shown).toBe(true);

    const labels = (fake.state.menuTemplate as { label?: string }[]).map((m) =>
      m.label?.replace("&", ""),
    );
    expect(labels).toEqual(expect.arrayContaining(["Edit", "View", "Window"]));

    const cb = vi.fn();
    fake.state.permissionRequest?.(null, "geolocation", cb);
    expect(cb).toHaveBeenCalledWith(false);
    const cancelled = (url: string) => {
      let cancel: boolean | undefined;
      fake.state.beforeRequest?.({ url }, (r: { cancel: boolean }) => {
        cancel = r.cancel;
      });
      return cancel;
    };
    expect(cancelled(`${APP_URL}assets/index.js`)).toBe(false);
    expect(cancelled("https://example.com/tracker.js")).toBe(true);
  });

  it("a dapp's signing request (once per burst), or a second launch, brings the minimized window to the front", async () => {
    const startNode = vi.fn(async (..._args: unknown[]) => nodeHandle());
    fake.startNode = startNode;
    await startDesktop();
    const [window] = fake.FakeWindow.all;
    if (window === undefined) throw new Error("no window");
    window.events.get("ready-to-show")?.();
    window.minimized = true;
    const options = startNode.mock.calls[0]?.[0] as { onSignRequest?: (r: unknown) => void };
    const onSignRequest = options.onSignRequest;
    expect(onSignRequest).toBeTypeOf("function");
    let now = 1_000_000;
    const clock = vi.spyOn(Date, "now").mockImplementation(() => now);
    try {
      onSignRequest?.({ id: "r1", kind: "quicksign", origin: "https://dapp.example" });
      expect(window.minimized).toBe(false);
      expect(window.focused).toBe(1);
      // More requests of the same burst (each within 10 s of the one before) leave the
      // window where the user put it.
      window.minimized = true;
      for (const [i, gap] of [1000, 4000, 9000].entries()) {
        now += gap;
        onSignRequest?.({ id: `b${i}`, kind: "quicksign", origin: "https://flood.example" });
      }
      expect([window.minimized, window.focused]).toEqual([true, 1]);
      // After 10 s without a request, the next one starts a burst: to the front again.
      now += 10_000;
      onSignRequest?.({ id: "r2", kind: "sign", origin: null });
      expect([window.minimized, window.focused]).toEqual([false, 2]);

      window.minimized = true;
      appEvents.emit("second-instance");
      expect([window.minimized, window.focused]).toEqual([false, 3]);
      // A closed window is left alone.
      window.destroyed = true;
      now += 60_000;
      onSignRequest?.({ id: "r3", kind: "sign", origin: null });
      expect(window.focused).toBe(3);
    } finally {
      clock.mockRestore();
    }
  });

  it("answers the bridge only for the node's origin once it runs", async () => {
    fake.startNode = async () => nodeHandle();
    await startDesktop();
    const info = fake.state.ipc.get("app/info");
    expect(info).toBeDefined();
    await expect(info?.({ senderFrame: { url: APP_URL } }, null)).resolves.toEqual({
      ok: true,
      value: {
        version: "0.1.0",
        dataDir: join(fake.state.userData, "data"),
        logFile: join(fake.state.userData, "logs", "weft.log"),
      },
    });
    await expect(
      info?.({ senderFrame: { url: "http://127.0.0.1:9/app/" } }, null),
    ).resolves.toMatchObject({
      ok: false,
      error: { code: "DESKTOP_IPC_FORBIDDEN_SENDER" },
    });
  });

  it("starts the node with the saved settings", async () => {
    const dataDir = join(root, "elsewhere");
    mkdirSync(fake.state.userData, { recursive: true });
    writeFileSync(
      join(fake.state.userData, "settings.json"),
      JSON.stringify({
        version: 1,
        network: "testnet04",
        dataDir,
        port: 0,
        miningOnStart: true,
        miningThreads: 3,
        backupDir: dataDir,
        miningApi: true,
        backupApi: true,
      }),
    );
    const startNode = vi.fn(async () => nodeHandle());
    fake.startNode = startNode;
    await startDesktop();
    expect(startNode).toHaveBeenCalledWith(
      expect.objectContaining({
        network: "testnet04",
        dataDir,
        port: 0,
        mining: { enabled: true, threads: 3, onDemand: "auto", apiEnabled: true },
        backup: { apiEnabled: true, directory: dataDir },
        logFile: expect.stringMatching(/weft\.log$/),
      }),
    );
  });

  it("restarts the node with the settings saved meanwhile; the window follows a new port", async () => {
    const startNode = vi.fn(async (...args: unknown[]) => {
      const asked = (args[0] as { port: number }).port;
      const port = asked === 1848 ? 41234 : asked;
      return {
        baseUrl: `http://127.0.0.1:${port}/ledger/0.0/development`,
        appUrl: `http://127.0.0.1:${port}/app/`,
        close: vi.fn(async () => {}),
      };
    });
    fake.startNode = startNode;
    await startDesktop();
    const write = fake.state.ipc.get("settings/write");
    await expect(
      write?.({ senderFrame: { url: APP_URL } }, { port: 41999, miningApi: true }),
    ).resolves.toMatchObject({ ok: true });
    // Saved, not applied: the running node keeps its options until it restarts.
    expect(startNode).toHaveBeenCalledTimes(1);
    const first = (startNode.mock.calls[0] as unknown[])[0] as {
      restart: (request: { reason: "restart" }) => void;
    };
    first.restart({ reason: "restart" });
    await vi.waitFor(() => expect(startNode).toHaveBeenCalledTimes(2));
    expect((startNode.mock.calls[1] as unknown[])[0]).toMatchObject({
      port: 41999,
      mining: { apiEnabled: true },
    });
    await vi.waitFor(() =>
      expect(fake.FakeWindow.all[0]?.loaded.at(-1)).toBe("http://127.0.0.1:41999/app/"),
    );
    // The bridge now answers the node's new origin only.
    const info = fake.state.ipc.get("app/info");
    await expect(
      info?.({ senderFrame: { url: "http://127.0.0.1:41999/app/" } }, null),
    ).resolves.toMatchObject({ ok: true });
    await expect(info?.({ senderFrame: { url: APP_URL } }, null)).resolves.toMatchObject({
      ok: false,
    });
  });

  it("shows the reason and the log file when the node cannot start", async () => {
    const failure = Object.assign(
      new Error("listen EADDRINUSE: address already in use 127.0.0.1:1848"),
      {
        code: "EADDRINUSE",
      },
    );
    fake.startNode = async () => {
      throw failure;
    };
    await startDesktop();
    const page = decodeDataUrl(fake.FakeWindow.all[0]?.loaded.at(-1) ?? "");
    const logFile = join(fake.state.userData, "logs", "weft.log");
    expect(page).toContain("could not start");
    expect(page).toContain("address already in use 127.0.0.1:1848");
    expect(page).toContain("<code>EADDRINUSE</code>");
    expect(page).toContain(logFile);
    expect(readFileSync(logFile, "utf8")).toContain("Node start-up failed");
  });

  it("says where to choose another port when another program has the node's", async () => {
    fake.startNode = async () => {
      throw new ApiError(
        {
          code: ApiErrorCode.ListenFailed,
          host: "127.0.0.1",
          port: 1848,
          reason: "listen EADDRINUSE",
          inUse: true,
          flag: "port",
        },
        "cannot listen on 127.0.0.1:1848: another program (another Weft node?) uses port 1848",
      );
    };
    await startDesktop();
    const page = decodeDataUrl(fake.FakeWindow.all[0]?.loaded.at(-1) ?? "");
    expect(page).toContain("another program (another Weft node?) uses port 1848");
    expect(page).toContain(
      `set another &quot;port&quot; (say 1849) in ${join(fake.state.userData, "settings.json")}`,
    );
    expect(page).toContain("<code>API_LISTEN_FAILED</code>");
  });

  it("refuses to start without the Electron build of better-sqlite3", async () => {
    rmSync(join(fake.state.appRoot, "dist", "native"), { recursive: true });
    const startNode = vi.fn();
    fake.startNode = startNode;
    await startDesktop();
    expect(startNode).not.toHaveBeenCalled();
    const page = decodeDataUrl(fake.FakeWindow.all[0]?.loaded.at(-1) ?? "");
    expect(page).toContain("DESKTOP_NATIVE_MODULE_MISSING");
    expect(page).toContain("npm run build:native");
  });

  it("closes the node before letting the app quit", async () => {
    let finishClose: () => void = () => {};
    const node = {
      ...nodeHandle(),
      close: vi.fn(
        () =>
          new Promise<void>((r) => {
            finishClose = r;
          }),
      ),
    };
    fake.startNode = async () => node;
    await startDesktop();
    const event = { preventDefault: vi.fn() };
    appEvents.emit("before-quit", event);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(node.close).toHaveBeenCalledOnce();
    expect(fake.state.quit).toBe(0);
    finishClose();
    await vi.waitFor(() => expect(fake.state.quit).toBe(1));
    const again = { preventDefault: vi.fn() };
    appEvents.emit("before-quit", again);
    expect(again.preventDefault).not.toHaveBeenCalled();
  });

  it("quits when the last window closes, except on macOS", async () => {
    fake.startNode = async () => nodeHandle();
    await startDesktop();
    appEvents.emit("window-all-closed");
    expect(fake.state.quit).toBe(process.platform === "darwin" ? 0 : 1);
  });
});
