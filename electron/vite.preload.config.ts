/**
 * Bundles the preload into one CommonJS file: sandboxed preloads can require only
 * `electron` (and a few built-ins), not our other modules.
 * Run: `vite build --config electron/vite.preload.config.ts`.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig({
  root,
  publicDir: false,
  logLevel: "warn",
  build: {
    outDir: "dist/electron",
    // Not emptied: the compiled shell (build/compileNode.ts) lives in the same folder.
    emptyOutDir: false,
    target: "es2023",
    minify: false,
    sourcemap: false,
    lib: {
      entry: fileURLToPath(new URL("./preload.ts", import.meta.url)),
      formats: ["cjs"],
      fileName: () => "preload.cjs",
    },
    rollupOptions: { external: ["electron"] },
  },
});
