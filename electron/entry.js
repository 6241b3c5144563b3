// Electron's main entry in a checkout (package.json "main"; a package names
// dist/electron/desktopEntry.js instead). It runs the compiled shell that `npm start` builds,
// or the TypeScript sources through tsx when WEFT_FROM_SOURCES=1 (`npm run dev`) or when
// nothing is compiled yet (docs/building.md).
import { existsSync } from "node:fs";

const compiled = new URL("../dist/electron/desktopEntry.js", import.meta.url);

if (process.env.WEFT_FROM_SOURCES !== "1" && existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("./desktopEntry.ts");
}
