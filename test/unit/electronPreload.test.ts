/**
 * The preload exposes exactly the typed bridge under `weftDesktop`, and nothing that
 * reaches IPC or Node.js directly.
 */
import { describe, expect, it, vi } from "vitest";

const exposed = vi.hoisted(() => new Map<string, unknown>());
const invoke = vi.hoisted(() =>
  vi.fn(async (..._args: unknown[]): Promise<unknown> => ({ ok: true, value: null })),
);

vi.mock("electron", () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api),
  },
  ipcRenderer: { invoke },
}));

await import("../../electron/preload.ts");

describe("[electron] preload", () => {
  it("exposes only weftDesktop, with the contract's methods and nothing else", () => {
    expect([...exposed.keys()]).toEqual(["weftDesktop"]);
    const api = exposed.get("weftDesktop");
    expect(Object.keys(api ?? {}).sort()).toEqual([
      "appInfo",
      "chooseFolder",
      "openFolder",
      "readSettings",
      "writeSettings",
    ]);
    for (const v of Object.values(api ?? {})) expect(typeof v).toBe("function");
  });

  it("sends calls through ipcRenderer.invoke on the contract's channels", async () => {
    const api = exposed.get("weftDesktop") as { openFolder(p: string): Promise<unknown> };
    await expect(api.openFolder("/data")).resolves.toEqual({ ok: true, value: null });
    expect(invoke).toHaveBeenCalledWith("shell/open-folder", { path: "/data" });
  });
});
