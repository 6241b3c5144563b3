/**
 * The web preferences of every window the app opens: the renderer is a web page with no
 * Node.js, isolated from the preload, in Chromium's sandbox (Electron security checklist,
 * docs/desktop.md). Nothing else in the app builds web preferences.
 * @module
 */
import type { WebPreferences } from "electron";

export type SecureWebPreferencesOptions = {
  /** The bundled bridge; absent for pages that need none. */
  readonly preload?: string | undefined;
  /**
   * Developer tools; off in packaged builds, where "paste this into the console" would be
   * an easy way to trick a wallet's owner.
   */
  readonly devTools: boolean;
};

export function secureWebPreferences(options: SecureWebPreferencesOptions): WebPreferences {
  return {
    ...(options.preload === undefined ? {} : { preload: options.preload }),
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
    safeDialogs: true,
    spellcheck: false,
    devTools: options.devTools,
  };
}
