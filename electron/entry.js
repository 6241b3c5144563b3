// Electron's main entry (package.json "main"). Like the CLI (bin/weft.js), the shell is
// TypeScript run through tsx; see docs/desktop.md §7 for how the package keeps that working.
import { createRequire } from "node:module";
import { register } from "tsx/esm/api";

if (import.meta.url.includes("/app.asar/")) {
  // Packaged: esbuild (used by tsx) must run its binary from the unpacked copy, because a
  // process cannot be spawned from inside the asar archive.
  const require = createRequire(import.meta.url);
  const pkg = `@esbuild/${process.platform}-${process.arch}`;
  const bin = require.resolve(
    process.platform === "win32" ? `${pkg}/esbuild.exe` : `${pkg}/bin/esbuild`,
  );
  process.env.ESBUILD_BINARY_PATH = bin.replace(/app\.asar([\\/])/, "app.asar.unpacked$1");
}

register();
const { startDesktop } = await import("./main.ts");
// Not awaited: Electron emits `ready` only once this module has finished evaluating.
startDesktop().catch((e) => {
  console.error("Weft failed to start:", e);
  process.exit(1);
});
