/**
 * The Electron main process: composes the desktop shell. It takes the single-instance lock,
 * hardens the session and every web contents, registers the bridge, sets the menu, opens
 * the window, starts the node in this process under a supervisor that restarts it when the
 * app asks (the node's mining search runs in its own worker threads) and shows the node's
 * UI, or the reason and the log file when start-up (or a restart) fails. On quit it closes the node and its databases before letting the app exit.
 *
 * This file and preload.ts are the only ones that import `electron` at run time; the rest
 * take Electron's objects as parameters and run under plain Node in tests.
 * @module
 */
import { existsSync } from "node:fs";
import { app, BrowserWindow, dialog, ipcMain, Menu, session, shell } from "electron";
import { DesktopError, DesktopErrorCode } from "./errors.ts";
import type { ChooseFolderArgs } from "./ipc/contract.ts";
import { createDesktopHandlers } from "./ipc/handlers.ts";
import { registerInvokeHandlers } from "./ipc/ipcMain.ts";
import { dataUrl, startingPage, startupFailurePage } from "./localPages.ts";
import { createFileLogger, type Logger } from "./log/fileLogger.ts";
import { applicationMenuTemplate } from "./menu.ts";
import { type HostedNode, portInUse, type SignRequestNotice } from "./nodeHost.ts";
import { NodeSupervisor } from "./nodeSupervisor.ts";
import { type DesktopPaths, desktopPaths } from "./paths.ts";
import { injectAppToken, newDesktopAppToken } from "./security/appToken.ts";
import { hardenContents, hardenSession, isAppUrl } from "./security/hardening.ts";
import { nodeOptionsOfSettings } from "./settings/nodeOptionsOfSettings.ts";
import { SettingsStore } from "./settings/settingsStore.ts";
import { createShutdown, type Shutdown } from "./shutdown.ts";
import { startsSignRequestBurst } from "./signRequestFront.ts";
import { bringToFront, mainWindowOptions } from "./window.ts";

const APP_NAME = "Weft";
const SHUTDOWN_TIMEOUT_MS = 15_000;

type DesktopState = {
  window: BrowserWindow | null;
  node: HostedNode | null;
  appOrigin: string | null;
  shutdown: Shutdown | null;
};

function errorFields(e: unknown): Record<string, unknown> {
  if (e instanceof Error) {
    const code = "code" in e && typeof e.code === "string" ? e.code : null;
    return { code, error: e.message, stack: e.stack };
  }
  return { error: String(e) };
}

function errorCode(e: unknown): string | null {
  return e instanceof Error && "code" in e && typeof e.code === "string" ? e.code : null;
}

/** The code worth showing: the node's own, when the node said why it failed. */
function failureCode(e: unknown): string | null {
  if (e instanceof DesktopError && e.type.code === DesktopErrorCode.NodeStartFailed) {
    return e.type.nodeCode ?? e.code;
  }
  return errorCode(e);
}

/**
 * Starts the desktop app. The synchronous part (sandbox, single-instance lock, listeners)
 * runs before Electron's `ready`; the returned promise settles once the window shows the
 * node's UI or the failure page. Do not await it at the top level of the entry module:
 * Electron emits `ready` only after the entry module has finished evaluating.
 */
export function startDesktop(): Promise<void> {
  app.setName(APP_NAME);
  app.enableSandbox();
  if (!app.requestSingleInstanceLock()) {
    // Another instance owns the data directory and the port; it gets focused instead.
    app.quit();
    return Promise.resolve();
  }
  const state: DesktopState = { window: null, node: null, appOrigin: null, shutdown: null };

  app.on("second-instance", () => {
    bringToFront(state.window);
  });
  app.on("window-all-closed", () => {
    if (process.platform !== "darwin") app.quit();
  });
  app.on("before-quit", (event) => {
    state.shutdown?.onBeforeQuit(event);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => app.quit());

  return app.whenReady().then(() => onReady(state));
}

async function onReady(state: DesktopState): Promise<void> {
  const paths = desktopPaths({
    userData: app.getPath("userData"),
    logs: app.getPath("logs"),
    appRoot: app.getAppPath(),
    resourcesPath: process.resourcesPath,
    isPackaged: app.isPackaged,
  });
  // Echo to a terminal in development (`npm start`); packaged apps only write the file.
  const log = createFileLogger({
    file: paths.logFile,
    echo: !app.isPackaged && process.stderr.isTTY === true,
  });
  log.info("Starting", { version: app.getVersion(), electron: process.versions.electron });
  const settings = new SettingsStore(paths.settingsFile, log);
  const appOrigin = () => state.appOrigin;

  hardenSession(session.defaultSession, appOrigin, log);
  // The node's per-launch secret for /app/api/*: sent by this app's windows only.
  const appToken = newDesktopAppToken();
  injectAppToken(session.defaultSession, appOrigin, appToken);
  app.on("web-contents-created", (_event, contents) => hardenContents(contents, appOrigin, log));
  registerInvokeHandlers(
    ipcMain,
    createDesktopHandlers({
      pickFolder: (args) => pickFolder(state, args),
      openPath: (path) => shell.openPath(path),
      settings,
      appInfo: () => ({
        version: app.getVersion(),
        dataDir: settings.read().dataDir ?? paths.defaultDataDir,
        logFile: paths.logFile,
      }),
    }),
    { isTrustedUrl: (url) => isAppUrl(url, state.appOrigin), log },
  );
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      applicationMenuTemplate({
        platform: process.platform,
        appName: APP_NAME,
        developer: !app.isPackaged,
      }),
    ),
  );

  if (!existsSync(paths.preload)) {
    // The UI still works without it; only the desktop-only controls disappear.
    log.warn("Preload missing; run `npm run build:preload`", { preload: paths.preload });
  }
  const window = openWindow(state, paths);
  await window.loadURL(dataUrl(startingPage(APP_NAME)));
  app.on("activate", () => {
    if (BrowserWindow.getAllWindows().length === 0 && state.node !== null) {
      void openWindow(state, paths).loadURL(state.node.appUrl);
    }
  });

  let lastSignRequestAt: number | null = null;
  try {
    const supervisor = await startConfiguredNode(settings, paths, log, appToken, {
      // The page has opened the request's review; the user must see it to answer it. Once
      // per burst: a page asking again and again does not keep taking the focus.
      onSignRequest: (request) => {
        const now = Date.now();
        const front = startsSignRequestBurst(lastSignRequestAt, now);
        lastSignRequestAt = now;
        log.info("Signing request from a dapp", {
          origin: request.origin,
          kind: request.kind,
          front,
        });
        if (front && bringToFront(state.window) && process.platform === "darwin") {
          app.focus({ steal: true });
        }
      },
      onRestarted: (restarted) => {
        const before = state.node?.appUrl;
        state.node = restarted;
        // Saved settings applied on restart may move the node (another port or network):
        // the window follows it; on the same address the page reconnects by itself.
        state.appOrigin = new URL(restarted.appUrl).origin;
        const w = state.window;
        if (restarted.appUrl !== before && w !== null && !w.isDestroyed()) {
          void w.loadURL(restarted.appUrl);
        }
      },
      onRestartFailed: (e) => {
        state.node = null;
        const w = state.window;
        if (w === null || w.isDestroyed()) return;
        void w.loadURL(
          dataUrl(
            startupFailurePage({
              appName: APP_NAME,
              reason: e instanceof Error ? e.message : String(e),
              code: failureCode(e),
              logFile: paths.logFile,
            }),
          ),
        );
      },
    });
    const node = supervisor.node as HostedNode;
    state.node = node;
    state.appOrigin = new URL(node.appUrl).origin;
    state.shutdown = createShutdown({
      closeNode: () => supervisor.close(),
      quit: () => app.quit(),
      log,
      timeoutMs: SHUTDOWN_TIMEOUT_MS,
    });
    log.info("Node started", { baseUrl: node.baseUrl, appUrl: node.appUrl });
    if (!window.isDestroyed()) await window.loadURL(node.appUrl);
  } catch (e) {
    log.error("Node start-up failed", errorFields(e));
    if (window.isDestroyed()) return;
    await window.loadURL(
      dataUrl(
        startupFailurePage({
          appName: APP_NAME,
          reason: e instanceof Error ? e.message : String(e),
          code: failureCode(e),
          logFile: paths.logFile,
        }),
      ),
    );
  }
}

function openWindow(state: DesktopState, paths: DesktopPaths): BrowserWindow {
  const window = new BrowserWindow(
    mainWindowOptions({ title: APP_NAME, preload: paths.preload, devTools: !app.isPackaged }),
  );
  window.once("ready-to-show", () => window.show());
  window.on("closed", () => {
    if (state.window === window) state.window = null;
  });
  state.window = window;
  return window;
}

/** Starts the node under a supervisor that can restart it (docs/desktop.md §3.4). */
async function startConfiguredNode(
  settings: SettingsStore,
  paths: DesktopPaths,
  log: Logger,
  appToken: string,
  events: {
    onRestarted: (node: HostedNode) => void;
    onRestartFailed: (e: unknown) => void;
    onSignRequest: (request: SignRequestNotice) => void;
  },
): Promise<NodeSupervisor> {
  if (!existsSync(paths.sqliteNativeBinding)) {
    throw new DesktopError(
      { code: DesktopErrorCode.NativeModuleMissing, path: paths.sqliteNativeBinding },
      `The database module built for Electron is missing (${paths.sqliteNativeBinding}). ` +
        "In a checkout, run `npm run build:native` once; a packaged app is damaged and needs reinstalling.",
    );
  }
  // Read again on every restart: settings saved on the Node page apply on "Restart node".
  const optionsNow = () =>
    nodeOptionsOfSettings(settings.read(), {
      defaultDataDir: paths.defaultDataDir,
      host: "127.0.0.1",
      sqliteNativeBinding: paths.sqliteNativeBinding,
      logger: log,
      logFile: paths.logFile,
      // The window sends the token as a header; loading /app/ hands it to no one.
      appToken,
      appTokenCookie: false,
    });
  const options = optionsNow();
  log.info("Starting the node", {
    network: options.network,
    dataDir: options.dataDir,
    port: options.port,
  });
  const supervisor = new NodeSupervisor({ options, reload: optionsNow, log, ...events });
  try {
    await supervisor.start();
    return supervisor;
  } catch (e) {
    if (e instanceof DesktopError) throw e;
    // The Node page's settings are out of reach while the node is down: say where the port is.
    const taken = portInUse(e);
    const message = e instanceof Error ? e.message : String(e);
    const reason =
      taken === null
        ? message
        : `${message}. Stop that program, or set another "port" (say ${taken.port + 1}) in ${paths.settingsFile}, then start the app again.`;
    throw new DesktopError(
      { code: DesktopErrorCode.NodeStartFailed, reason, nodeCode: errorCode(e) },
      reason,
      { cause: e },
    );
  }
}

async function pickFolder(state: DesktopState, args: ChooseFolderArgs): Promise<string | null> {
  const options = {
    title: args.title ?? "Choose a folder",
    ...(args.defaultPath === undefined ? {} : { defaultPath: args.defaultPath }),
    properties: ["openDirectory", "createDirectory"] as Array<"openDirectory" | "createDirectory">,
  };
  const w = state.window;
  const result =
    w === null || w.isDestroyed()
      ? await dialog.showOpenDialog(options)
      : await dialog.showOpenDialog(w, options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}
