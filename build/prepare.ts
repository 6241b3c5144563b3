/**
 * npm's `prepare` (run by `npm install` and `npm ci` in a checkout): compiles the node — which
 * must succeed, `npx weft` runs it — then builds the UI and the preload, so that the first
 * `npm start` has nothing left to build (it spent 44 s building the UI; issue 36). The UI's
 * build is a convenience: if it fails (a broken Vite, no disk space), the install still
 * succeeds, says so, and `npm start` builds it then. It is skipped where nobody starts the app
 * from this install: under CI (`CI` set: the end-to-end tests build the UI themselves, into a
 * folder of their own), or when `WEFT_SKIP_UI_BUILD=1`. Each step is skipped anyway while its
 * inputs are unchanged (build/buildSteps.ts), so a second `npm install` costs nothing.
 * docs/building.md "Install".
 * @module
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runStep, type StepName, type StepResult } from "./buildSteps.ts";

export type PreparePlan = {
  /** Steps whose failure fails the install. */
  readonly required: readonly StepName[];
  /** Steps tried after them; a failure only warns. */
  readonly optional: readonly StepName[];
  /** Why the optional steps are skipped, or null. */
  readonly skipReason: string | null;
};

/** What `prepare` builds in this environment. */
export function preparePlan(env: NodeJS.ProcessEnv): PreparePlan {
  const skipReason =
    env.WEFT_SKIP_UI_BUILD === "1"
      ? "WEFT_SKIP_UI_BUILD=1"
      : env.CI !== undefined && env.CI !== "" && env.CI !== "0" && env.CI !== "false"
        ? "CI is set (the tests build the UI themselves)"
        : null;
  return {
    required: ["node"],
    optional: skipReason === null ? ["renderer", "preload"] : [],
    skipReason,
  };
}

/** Runs the plan; resolves to the install's exit code (0 unless a required step failed). */
export async function prepare(
  plan: PreparePlan,
  run: (step: StepName) => Promise<StepResult>,
  say: (line: string) => void,
): Promise<number> {
  const once = async (step: StepName) => {
    const started = performance.now();
    const r = await run(step);
    const ms = Math.round(performance.now() - started);
    say(`prepare ${r.step}: ${r.skipped ? "up to date" : r.note} (${ms} ms)`);
  };
  for (const step of plan.required) {
    try {
      await once(step);
    } catch (e) {
      say(`prepare ${step} failed: ${e instanceof Error ? e.message : String(e)}`);
      return 1;
    }
  }
  if (plan.skipReason !== null) {
    say(`prepare: the UI is not built now (${plan.skipReason}); npm start builds it.`);
    return 0;
  }
  for (const step of plan.optional) {
    try {
      await once(step);
    } catch (e) {
      say(
        `prepare ${step}: not built (${e instanceof Error ? e.message : String(e)}); npm start builds it. The install itself succeeded.`,
      );
      return 0;
    }
  }
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const repo = fileURLToPath(new URL("..", import.meta.url));
  const code = await prepare(
    preparePlan(process.env),
    (step) => runStep(repo, step, false),
    (line) => console.log(line),
  );
  process.exitCode = code;
}
