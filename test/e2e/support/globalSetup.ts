/**
 * Once per e2e run: checks that Chromium is there and builds the renderer into a temporary
 * folder (so a developer's dist/renderer is left alone); tests get the folder through
 * `inject("rendererDir")`.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import type { TestProject } from "vitest/node";
import { chromiumPath } from "./browser.ts";

declare module "vitest" {
  export interface ProvidedContext {
    rendererDir: string;
  }
}

export async function setup(project: TestProject): Promise<() => void> {
  if (!existsSync(chromiumPath())) {
    throw new Error(
      `Chromium not found at ${chromiumPath()}. Install it (apt-get install -y chromium) or set WEFT_CHROMIUM.`,
    );
  }
  const outDir = mkdtempSync(join(tmpdir(), "weft-e2e-renderer-"));
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build;
  // test what ships instead.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({
      mode: "production",
      configFile: fileURLToPath(new URL("../../../renderer/vite.config.ts", import.meta.url)),
      logLevel: "warn",
      build: { outDir, emptyOutDir: true, sourcemap: false },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  project.provide("rendererDir", outDir);
  return () => rmSync(outDir, { recursive: true, force: true });
}
