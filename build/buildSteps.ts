/**
 * The steps of `npm run build` and when each may be skipped: the node's compile (per file,
 * build/compileNode.ts), and the Vite builds of the UI and the preload, skipped while the
 * contents of their inputs are those of their last successful build.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { compileNode } from "./compileNode.ts";
import { GENESIS_CACHE_DIR, genesisCacheComplete, writeGenesisCache } from "./genesisCache.ts";
import { hashFiles, listFiles, readStamp, writeStamp } from "./inputStamp.ts";

export type StepName = "node" | "renderer" | "preload";
export const STEP_NAMES: readonly StepName[] = ["node", "renderer", "preload"];

type ViteStep = {
  readonly config: string;
  /** Files whose contents decide whether the output is current. */
  inputs(repo: string): string[];
  /** A file the build writes; missing means not built. */
  readonly output: string;
};

const lockAndManifest = ["package.json", "package-lock.json"];

const viteSteps: Record<Exclude<StepName, "node">, ViteStep> = {
  renderer: {
    config: "renderer/vite.config.ts",
    inputs: (repo) => [...listFiles(repo, "renderer", () => true), ...lockAndManifest],
    output: "dist/renderer/index.html",
  },
  preload: {
    config: "electron/vite.preload.config.ts",
    // The preload imports only electron/ files (its IPC contract); any change there counts.
    inputs: (repo) => [
      ...listFiles(repo, "electron", (f) => f.endsWith(".ts")),
      ...lockAndManifest,
    ],
    output: "dist/electron/preload.cjs",
  },
};

export type StepResult = {
  readonly step: StepName;
  readonly skipped: boolean;
  readonly note: string;
};

/** Whether a Vite step's output exists and was built from its inputs' current contents. */
export function viteStepIsCurrent(repo: string, name: Exclude<StepName, "node">): boolean {
  const step = viteSteps[name];
  const stamp = readStamp<{ hash: string }>(viteStampFile(repo, name));
  return stamp?.hash === hashFiles(repo, step.inputs(repo)) && existsSync(join(repo, step.output));
}

/** Records that a Vite step's output was built from its inputs as they are now. */
export function recordViteStep(repo: string, name: Exclude<StepName, "node">): void {
  writeStamp(viteStampFile(repo, name), { hash: hashFiles(repo, viteSteps[name].inputs(repo)) });
}

function viteStampFile(repo: string, name: string): string {
  return join(repo, "dist", ".build", `${name}.json`);
}

/**
 * The environment of a Vite build: the caller's, with `NODE_ENV=production` always. The UI is
 * tested as it ships: a build started under Vitest (which sets `NODE_ENV=test`: the package
 * test, the wallet benchmark) would otherwise bundle React's development build into the same
 * `dist/renderer` the end-to-end tests then reuse as current — slower, effects run twice.
 */
export function viteBuildEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, NODE_ENV: "production" };
}

function runVite(repo: string, name: Exclude<StepName, "node">, force: boolean): StepResult {
  if (!force && viteStepIsCurrent(repo, name)) {
    return { step: name, skipped: true, note: "inputs unchanged" };
  }
  const step = viteSteps[name];
  const vite = join(repo, "node_modules", "vite", "bin", "vite.js");
  const r = spawnSync(process.execPath, [vite, "build", "--config", step.config], {
    cwd: repo,
    env: viteBuildEnv(process.env),
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error(`vite build --config ${step.config} failed`);
  recordViteStep(repo, name);
  return { step: name, skipped: false, note: "built" };
}

/** Runs one step; skips what is current unless `force`. */
export async function runStep(repo: string, name: StepName, force: boolean): Promise<StepResult> {
  if (name !== "node") return runVite(repo, name, force);
  const r = await compileNode(repo, { force, derived: [GENESIS_CACHE_DIR] });
  const genesis = force || !genesisCacheComplete(repo);
  if (genesis) writeGenesisCache(repo);
  return {
    step: "node",
    skipped: r.compiled.length === 0 && r.removed.length === 0 && !genesis,
    note: `${r.compiled.length} of ${r.total} files compiled, ${r.removed.length} removed${genesis ? ", genesis precomputed" : ""}`,
  };
}
