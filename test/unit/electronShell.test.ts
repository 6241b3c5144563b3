/**
 * Small main-process modules: the menu, the local pages, paths, the log file and the
 * shutdown sequence.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MenuItemConstructorOptions } from "electron";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  dataUrl,
  escapeHtml,
  startingPage,
  startupFailurePage,
} from "../../electron/localPages.ts";
import { createFileLogger, formatLogLine } from "../../electron/log/fileLogger.ts";
import { applicationMenuTemplate } from "../../electron/menu.ts";
import { desktopPaths } from "../../electron/paths.ts";
import { createShutdown } from "../../electron/shutdown.ts";

const tmp = mkdtempSync(join(tmpdir(), "weft-shell-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function roles(items: MenuItemConstructorOptions[] | undefined): string[] {
  return (items ?? []).flatMap((i) => [
    ...(i.role === undefined ? [] : [i.role]),
    ...(Array.isArray(i.submenu) ? roles(i.submenu) : []),
  ]);
}

describe("[electron] application menu", () => {
  it("has Edit, View and Window menus built from roles", () => {
    for (const platform of ["linux", "win32", "darwin"] as const) {
      const t = applicationMenuTemplate({ platform, appName: "Weft", developer: false });
      const labels = t.map((m) => (m.label ?? "").replace("&", ""));
      expect(labels, platform).toEqual(expect.arrayContaining(["Edit", "View", "Window"]));
      const all = roles(t);
      for (const r of [
        "undo",
        "redo",
        "cut",
        "copy",
        "paste",
        "selectAll",
        "zoomIn",
        "minimize",
        "quit",
      ]) {
        expect(all, `${platform} ${r}`).toContain(r);
      }
      expect(all, platform).not.toContain("toggleDevTools");
    }
  });

  it("puts the app menu first on macOS and adds developer tools only in development", () => {
    const mac = applicationMenuTemplate({ platform: "darwin", appName: "Weft", developer: true });
    expect(mac[0]?.label).toBe("Weft");
    expect(roles(mac)).toEqual(
      expect.arrayContaining(["about", "hide", "toggleDevTools", "reload"]),
    );
  });
});

describe("[electron] local pages", () => {
  it("escapes text into HTML", () => {
    expect(escapeHtml(`<script>"a" & 'b'</script>`)).toBe(
      "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;",
    );
  });

  it("shows the reason, the code and the log file on the failure page, escaped", () => {
    const html = startupFailurePage({
      appName: "Weft",
      reason: "listen EADDRINUSE: address already in use 127.0.0.1:1848 <b>",
      code: "EADDRINUSE",
      logFile: "/home/u/.config/Weft/logs/weft.log",
    });
    expect(html).toContain("address already in use 127.0.0.1:1848 &lt;b&gt;");
    expect(html).toContain("<code>EADDRINUSE</code>");
    expect(html).toContain("/home/u/.config/Weft/logs/weft.log");
    expect(html).not.toContain("<script");
    expect(html).toContain('http-equiv="Content-Security-Policy"');
  });

  it("round-trips through a data: URL", () => {
    const html = startingPage("Weft");
    const url = dataUrl(html);
    expect(url.startsWith("data:text/html;charset=utf-8,")).toBe(true);
    expect(decodeURIComponent(url.slice(url.indexOf(",") + 1))).toBe(html);
  });
});

describe("[electron] paths", () => {
  const base = { userData: "/u", logs: "/u/logs", resourcesPath: "/r" };
  it("keeps the Electron build of better-sqlite3 apart from node_modules", () => {
    const dev = desktopPaths({ ...base, appRoot: "/repo", isPackaged: false });
    expect(dev).toEqual({
      settingsFile: join("/u", "settings.json"),
      defaultDataDir: join("/u", "data"),
      logFile: join("/u/logs", "weft.log"),
      preload: join("/repo", "dist", "electron", "preload.cjs"),
      sqliteNativeBinding: join("/repo", "dist", "native", "electron", "better_sqlite3.node"),
    });
    const packaged = desktopPaths({ ...base, appRoot: "/r/app.asar", isPackaged: true });
    expect(packaged.sqliteNativeBinding).toBe(join("/r", "native", "better_sqlite3.node"));
    expect(packaged.sqliteNativeBinding).not.toContain("node_modules");
  });
});

describe("[electron] log file", () => {
  it("formats one line per entry", () => {
    const t = new Date("2025-01-02T03:04:05.000Z");
    expect(formatLogLine(t, "warn", "Blocked\na request", { url: "x", n: 1n })).toBe(
      '2025-01-02T03:04:05.000Z WARN  Blocked a request {"url":"x","n":"1"}',
    );
    expect(formatLogLine(t, "info", "Started")).toBe("2025-01-02T03:04:05.000Z INFO  Started");
  });

  it("appends to the file, creating its folder", () => {
    const file = join(tmp, "logs", "weft.log");
    const log = createFileLogger({ file, echo: false, now: () => new Date(0) });
    log.info("one");
    log.error("two", { code: "X" });
    expect(readFileSync(file, "utf8").trim().split("\n")).toEqual([
      "1970-01-01T00:00:00.000Z INFO  one",
      '1970-01-01T00:00:00.000Z ERROR two {"code":"X"}',
    ]);
  });

  it.skipIf(process.platform === "win32")(
    "keeps the log the user's alone: folder 0700, file 0600, an older loose file tightened",
    () => {
      const previous = process.umask(0o022);
      try {
        const file = join(tmp, "private-logs", "weft.log");
        createFileLogger({ file, echo: false }).info("one");
        expect(statSync(join(tmp, "private-logs")).mode & 0o777).toBe(0o700);
        expect(statSync(file).mode & 0o777).toBe(0o600);
        chmodSync(file, 0o644);
        createFileLogger({ file, echo: false }).info("two");
        expect(statSync(file).mode & 0o777).toBe(0o600);
        expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(2);
      } finally {
        process.umask(previous);
      }
    },
  );

  it("never throws when the file cannot be written", () => {
    // A regular file where a folder should be: mkdir and append both fail.
    const blocker = join(tmp, "blocker");
    writeFileSync(blocker, "");
    const log = createFileLogger({ file: join(blocker, "sub", "x.log"), echo: false });
    expect(() => log.warn("lost")).not.toThrow();
  });
});

describe("[electron] shutdown", () => {
  const log = { info: vi.fn(), error: vi.fn() };

  it("holds the first quit until the node has closed, then quits once", async () => {
    let finish: () => void = () => {};
    const closeNode = vi.fn(
      () =>
        new Promise<void>((r) => {
          finish = r;
        }),
    );
    const quit = vi.fn();
    const s = createShutdown({ closeNode, quit, log, timeoutMs: 10_000 });
    const first = { preventDefault: vi.fn() };
    s.onBeforeQuit(first);
    expect(first.preventDefault).toHaveBeenCalled();
    expect(s.phase()).toBe("closing");
    const second = { preventDefault: vi.fn() };
    s.onBeforeQuit(second);
    expect(second.preventDefault).toHaveBeenCalled();
    expect(closeNode).toHaveBeenCalledOnce();
    expect(quit).not.toHaveBeenCalled();
    finish();
    await s.done;
    expect(quit).toHaveBeenCalledOnce();
    const third = { preventDefault: vi.fn() };
    s.onBeforeQuit(third);
    expect(third.preventDefault).not.toHaveBeenCalled();
  });

  it("gives up on a node that does not close in time", async () => {
    vi.useFakeTimers();
    try {
      const quit = vi.fn();
      const s = createShutdown({
        closeNode: () => new Promise<void>(() => {}),
        quit,
        log,
        timeoutMs: 5000,
      });
      s.onBeforeQuit({ preventDefault: () => {} });
      await vi.advanceTimersByTimeAsync(5000);
      await s.done;
      expect(quit).toHaveBeenCalledOnce();
      expect(log.error).toHaveBeenCalledWith(
        "Node did not close cleanly",
        expect.objectContaining({ error: "The node did not close within 5000 ms." }),
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it("lets the quit through at once when no node was started", () => {
    const s = createShutdown({ closeNode: null, quit: vi.fn(), log, timeoutMs: 1 });
    const e = { preventDefault: vi.fn() };
    s.onBeforeQuit(e);
    expect(e.preventDefault).not.toHaveBeenCalled();
  });
});
