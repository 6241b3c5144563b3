/**
 * Once per e2e run: checks that Chromium is there and that the UI in `dist/renderer` is built
 * from the sources as they are (building it only when they changed since its last build, the
 * same check `npm start` makes); tests get the folder through `inject("rendererDir")`. So a run
 * builds the UI at most once, and not at all when `npm install` or `npm start` already did.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { runStep } from "../../../build/buildSteps.ts";
import { chromiumPath } from "./browser.ts";

declare module "vitest" {
  export interface ProvidedContext {
    rendererDir: string;
  }
}

export async function setup(project: TestProject): Promise<void> {
  if (!existsSync(chromiumPath())) {
    throw new Error(
      `Chromium not found at ${chromiumPath()}. Install it (apt-get install -y chromium) or set WEFT_CHROMIUM.`,
    );
  }
  const repo = fileURLToPath(new URL("../../../", import.meta.url));
  // Built as it ships (NODE_ENV=production, build/buildSteps.ts viteBuildEnv), whoever built it.
  await runStep(repo, "renderer", false);
  project.provide("rendererDir", join(repo, "dist", "renderer"));
}
