/**
 * The main window's options. Every window gets the secure web preferences; the window
 * stays hidden until its first page has painted, so start-up shows no blank frame. And how
 * the window comes to the front: a second launch of the app, a dapp's signing request.
 * @module
 */
import type { BrowserWindow, BrowserWindowConstructorOptions } from "electron";
import { secureWebPreferences } from "./security/webPreferences.ts";

export type MainWindowInputs = {
  readonly title: string;
  readonly preload: string;
  readonly devTools: boolean;
};

export function mainWindowOptions(inputs: MainWindowInputs): BrowserWindowConstructorOptions {
  return {
    title: inputs.title,
    width: 1200,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    show: false,
    autoHideMenuBar: false,
    webPreferences: secureWebPreferences({ preload: inputs.preload, devTools: inputs.devTools }),
  };
}

/** What {@link bringToFront} uses of a window (a BrowserWindow; tests pass a fake). */
export type FrontWindow = Pick<
  BrowserWindow,
  "isDestroyed" | "isMinimized" | "restore" | "isVisible" | "show" | "focus"
>;

/**
 * Shows `window` in front of the others: restored when minimized, shown when hidden,
 * focused. False when there is no window to show (closed, or not opened yet).
 */
export function bringToFront(window: FrontWindow | null): boolean {
  if (window === null || window.isDestroyed()) return false;
  if (window.isMinimized()) window.restore();
  if (!window.isVisible()) window.show();
  window.focus();
  return true;
}
