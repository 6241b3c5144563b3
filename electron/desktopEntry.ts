/**
 * The Electron main process's entry: starts the desktop app. Compiled to
 * `dist/electron/desktopEntry.js`, which is the packaged app's `main`; in a checkout,
 * `electron/entry.js` picks the compiled file or, for `npm run dev`, this source.
 * @module
 */
import { startDesktop } from "./main.ts";

// Not awaited: Electron emits `ready` only once this module has finished evaluating.
startDesktop().catch((e: unknown) => {
  console.error("Weft failed to start:", e);
  process.exit(1);
});
