/**
 * The preload: exposes the typed desktop bridge (`window.weftDesktop`) to the app's pages
 * and nothing else: no ipcRenderer, no Node.js. It runs sandboxed, so it is bundled with its
 * imports into one CommonJS file (`npm run build:preload` → dist/electron/preload.cjs).
 * @module
 */
import { contextBridge, ipcRenderer } from "electron";
import { desktopApiGlobal } from "./ipc/contract.ts";
import { createDesktopApi } from "./ipc/desktopApi.ts";

contextBridge.exposeInMainWorld(
  desktopApiGlobal,
  createDesktopApi((channel, args) => ipcRenderer.invoke(channel, args)),
);
