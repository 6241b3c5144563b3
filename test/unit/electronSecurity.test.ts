/**
 * The desktop security settings: web preferences, the Content-Security-Policy, and the
 * session and web-contents guards (permissions, requests, navigation, new windows).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { localPageCsp, rendererCsp, rendererCspHeader } from "../../electron/security/csp.ts";
import {
  type GuardableContents,
  type GuardableSession,
  hardenContents,
  hardenSession,
  isAllowedRequest,
  isAppUrl,
  withCspHeader,
} from "../../electron/security/hardening.ts";
import { secureWebPreferences } from "../../electron/security/webPreferences.ts";
import { mainWindowOptions } from "../../electron/window.ts";

const APP = "http://127.0.0.1:1848";
const log = { warn: vi.fn() };

describe("[electron] web preferences", () => {
  it("isolates, sandboxes and keeps Node.js out of every window", () => {
    const prefs = secureWebPreferences({
      preload: "/app/dist/electron/preload.cjs",
      devTools: false,
    });
    expect(prefs).toMatchObject({
      preload: "/app/dist/electron/preload.cjs",
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      devTools: false,
    });
    expect(prefs).not.toHaveProperty("enableBlinkFeatures");
    expect(secureWebPreferences({ devTools: true })).not.toHaveProperty("preload");
  });

  it("gives the main window those preferences and keeps it hidden until painted", () => {
    const o = mainWindowOptions({ title: "Weft", preload: "/p.cjs", devTools: true });
    expect(o.show).toBe(false);
    expect(o.webPreferences).toEqual(secureWebPreferences({ preload: "/p.cjs", devTools: true }));
  });
});

describe("[electron] Content-Security-Policy", () => {
  const directives = (csp: string) =>
    new Map(
      csp.split(";").map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name ?? "", values.join(" ")] as const;
      }),
    );

  it("allows only the app's own origin and nothing inline", () => {
    const d = directives(rendererCspHeader);
    expect(d.get("default-src")).toBe("'none'");
    expect(d.get("script-src")).toBe("'self'");
    expect(d.get("style-src")).toBe("'self'");
    expect(d.get("connect-src")).toBe("'self'");
    expect(d.get("object-src")).toBe("'none'");
    expect(d.get("base-uri")).toBe("'none'");
    expect(d.get("frame-ancestors")).toBe("'none'");
    expect(rendererCspHeader).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
  });

  it("is the policy the renderer's index.html declares", () => {
    const html = readFileSync(new URL("../../renderer/index.html", import.meta.url), "utf8");
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html);
    expect(meta?.[1]).toBe(rendererCsp);
  });

  it("keeps the local pages script-free", () => {
    expect(directives(localPageCsp).get("default-src")).toBe("'none'");
    expect(localPageCsp).not.toContain("script-src");
    expect(rendererCspHeader.startsWith(rendererCsp)).toBe(true);
  });
});

describe("[electron] origin checks", () => {
  it("recognises the app origin exactly", () => {
    expect(isAppUrl(`${APP}/app/`, APP)).toBe(true);
    expect(isAppUrl(`blob:${APP}/0b3c`, APP)).toBe(true);
    expect(isAppUrl("http://127.0.0.1:1849/app/", APP)).toBe(false);
    expect(isAppUrl("http://localhost:1848/app/", APP)).toBe(false);
    expect(isAppUrl("https://127.0.0.1:1848/app/", APP)).toBe(false);
    expect(isAppUrl("not a url", APP)).toBe(false);
    expect(isAppUrl(`${APP}/app/`, null)).toBe(false);
  });

  it("lets requests go only to the app origin and local pages", () => {
    expect(isAllowedRequest(`${APP}/ledger/0.0/development/cut`, APP)).toBe(true);
    expect(isAllowedRequest("data:text/html,hi", null)).toBe(true);
    expect(isAllowedRequest("https://fonts.example/f.woff", APP)).toBe(false);
    expect(isAllowedRequest("file:///etc/passwd", APP)).toBe(false);
    expect(isAllowedRequest(`${APP}/app/`, null)).toBe(false);
  });

  it("sets the CSP header, replacing any other policy", () => {
    expect(
      withCspHeader({
        "content-security-policy": ["default-src *"],
        "Content-Type": ["text/html"],
      }),
    ).toEqual({ "Content-Type": ["text/html"], "Content-Security-Policy": [rendererCspHeader] });
  });
});

function fakeSession() {
  const s = {
    permissionRequest: null as null | ((c: unknown, p: string, cb: (g: boolean) => void) => void),
    permissionCheck: null as null | ((c: unknown, p: string) => boolean),
    devicePermission: null as null | ((d: unknown) => boolean),
    beforeRequest: null as
      | null
      | ((d: { url: string }, cb: (r: { cancel: boolean }) => void) => void),
    headers: null as
      | null
      | ((
          d: { url: string; responseHeaders?: Record<string, string[]> },
          cb: (r: { responseHeaders: Record<string, string[]> }) => void,
        ) => void),
    download: null as null | ((e: { preventDefault(): void }) => void),
  };
  const session: GuardableSession = {
    setPermissionRequestHandler: (h) => {
      s.permissionRequest = h;
    },
    setPermissionCheckHandler: (h) => {
      s.permissionCheck = h;
    },
    setDevicePermissionHandler: (h) => {
      s.devicePermission = h;
    },
    webRequest: {
      onBeforeRequest: (l) => {
        s.beforeRequest = l;
      },
      onHeadersReceived: (l) => {
        s.headers = l;
      },
    },
    on: (_event, l) => {
      s.download = l;
    },
  };
  return { s, session };
}

describe("[electron] session guards", () => {
  let origin: string | null = null;
  const { s, session } = fakeSession();
  hardenSession(session, () => origin, log);

  it("denies every permission request and check", () => {
    for (const p of ["media", "geolocation", "notifications", "clipboard-read", "openExternal"]) {
      const cb = vi.fn();
      s.permissionRequest?.(null, p, cb);
      expect(cb, p).toHaveBeenCalledWith(false);
      expect(s.permissionCheck?.(null, p), p).toBe(false);
    }
    expect(s.devicePermission?.({})).toBe(false);
  });

  it("cancels requests off the app origin, before and after the node starts", () => {
    const decide = (url: string) => {
      let cancel: boolean | undefined;
      s.beforeRequest?.({ url }, (r) => {
        cancel = r.cancel;
      });
      return cancel;
    };
    origin = null;
    expect(decide(`${APP}/app/`)).toBe(true);
    expect(decide("data:text/html,starting")).toBe(false);
    origin = APP;
    expect(decide(`${APP}/app/assets/index.js`)).toBe(false);
    expect(decide("https://cdn.example/x.js")).toBe(true);
  });

  it("adds the CSP header to app responses only", () => {
    origin = APP;
    const headersFor = (url: string) => {
      let out: Record<string, string[]> = {};
      s.headers?.({ url, responseHeaders: { "X-A": ["1"] } }, (r) => {
        out = r.responseHeaders;
      });
      return out;
    };
    expect(headersFor(`${APP}/app/`)["Content-Security-Policy"]).toEqual([rendererCspHeader]);
    expect(headersFor("data:text/html,x")).toEqual({ "X-A": ["1"] });
  });

  it("blocks downloads", () => {
    const preventDefault = vi.fn();
    s.download?.({ preventDefault });
    expect(preventDefault).toHaveBeenCalled();
  });
});

describe("[electron] web-contents guards", () => {
  const listeners = new Map<string, (e: { url: string; preventDefault(): void }) => void>();
  let openHandler: ((d: { url: string }) => { action: "deny" }) | null = null;
  const contents: GuardableContents = {
    on: (event: string, l: (e: { url: string; preventDefault(): void }) => void) => {
      listeners.set(event, l);
    },
    setWindowOpenHandler: (h) => {
      openHandler = h;
    },
  };
  hardenContents(contents, () => APP, log);

  const prevented = (event: string, url: string) => {
    const preventDefault = vi.fn();
    listeners.get(event)?.({ url, preventDefault });
    return preventDefault.mock.calls.length > 0;
  };

  it("keeps navigation, frame navigation and redirects on the app origin", () => {
    for (const event of ["will-navigate", "will-frame-navigate", "will-redirect"]) {
      expect(listeners.has(event), event).toBe(true);
      expect(prevented(event, `${APP}/app/#/wallet`), event).toBe(false);
      expect(prevented(event, "https://phish.example/"), event).toBe(true);
      expect(prevented(event, "file:///etc/passwd"), event).toBe(true);
    }
  });

  it("denies new windows and webviews", () => {
    expect(openHandler?.({ url: `${APP}/app/` })).toEqual({ action: "deny" });
    expect(openHandler?.({ url: "https://example.com/" })).toEqual({ action: "deny" });
    expect(prevented("will-attach-webview", "")).toBe(true);
  });
});

describe("[electron] app token header", () => {
  it("is the node's header name, written out twice (electron/ never imports the node's API)", async () => {
    const { APP_TOKEN_HEADER } = await import("../../electron/security/appToken.ts");
    const node = await import("../../src-node/api/appToken.ts");
    expect(APP_TOKEN_HEADER.toLowerCase()).toBe(node.APP_TOKEN_HEADER);
  });

  it("is added only to requests to the app's origin, replacing any given", async () => {
    const { withAppToken } = await import("../../electron/security/appToken.ts");
    const origin = "http://127.0.0.1:1848";
    expect(
      withAppToken(`${origin}/app/api/mining`, { "x-weft-app-token": "forged" }, origin, "t"),
    ).toEqual({
      "X-Weft-App-Token": "t",
    });
    expect(withAppToken("http://evil.example/", { a: "b" }, origin, "t")).toEqual({ a: "b" });
    expect(withAppToken(`${origin}/app/`, {}, null, "t")).toEqual({});
  });
});
