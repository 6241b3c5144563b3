/**
 * The main window's options. Every window gets the secure web preferences; the window
 * stays hidden until its first page has painted, so start-up shows no blank frame.
 * @module
 */
import type { BrowserWindowConstructorOptions } from "electron";
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
