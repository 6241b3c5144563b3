/**
 * Builds the React UI into dist/renderer. The node serves it under /app/ (same origin as
 * its API), hence `base`. Run: `vite build --config renderer/vite.config.ts`.
 */
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/app/",
  plugins: [react()],
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL("../dist/renderer", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    sourcemap: true,
    // Everything from 'self': no inline scripts, no data: URLs for assets (the CSP allows
    // data: only for images).
    assetsInlineLimit: 0,
    rollupOptions: {
      output: {
        // Libraries in their own files: smaller chunks, cached across app updates.
        manualChunks(id) {
          if (!id.includes("node_modules")) return undefined;
          if (
            /[\\/](react-aria|react-aria-components|react-stately|@react-types|@internationalized)[\\/]/.test(
              id,
            )
          )
            return "aria";
          if (id.includes("@tanstack")) return "tanstack";
          // The Node page's charts (loaded when it shows them): recharts and what only it uses.
          if (
            /[\\/](recharts|d3-[a-z-]+|victory-vendor|@reduxjs|redux|react-redux|redux-thunk|immer|reselect|es-toolkit|decimal\.js-light|eventemitter3|internmap|tiny-invariant)[\\/]/.test(
              id,
            )
          )
            return "charts";
          return "vendor";
        },
      },
    },
  },
});
