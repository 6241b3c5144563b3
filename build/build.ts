/**
 * `npm run build`: compiles the node and the shell to `dist/` and builds the UI and the
 * preload, each only when its inputs changed (build/buildSteps.ts).
 *
 * Usage: tsx build/build.ts [node|renderer|preload ...] [--force] [--watch]
 *   no step named: all three. --force: rebuild even when current.
 *   --watch: after building, compile the node again whenever a source changes.
 */
import { watch } from "node:fs";
import { fileURLToPath } from "node:url";
import { runStep, STEP_NAMES, type StepName } from "./buildSteps.ts";
import { SOURCE_DIRS } from "./compileNode.ts";

const repo = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const force = args.includes("--force");
const watching = args.includes("--watch");
const named = args.filter((a) => !a.startsWith("--"));
const unknown = named.filter((a) => !STEP_NAMES.includes(a as StepName));
if (unknown.length > 0) {
  console.error(`build: unknown step ${unknown.join(", ")} (steps: ${STEP_NAMES.join(", ")})`);
  process.exit(2);
}
const steps = named.length === 0 ? STEP_NAMES : (named as StepName[]);

async function once(stepsToRun: readonly StepName[], forced: boolean): Promise<void> {
  for (const step of stepsToRun) {
    const started = performance.now();
    const r = await runStep(repo, step, forced);
    const ms = Math.round(performance.now() - started);
    console.log(`build ${r.step}: ${r.skipped ? "up to date" : r.note} (${ms} ms)`);
  }
}

try {
  await once(steps, force);
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
}

if (watching) {
  let timer: NodeJS.Timeout | undefined;
  const again = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      once(["node"], false).catch((e: unknown) =>
        console.error(e instanceof Error ? e.message : String(e)),
      );
    }, 100);
  };
  for (const dir of SOURCE_DIRS)
    watch(new URL(`../${dir}/`, import.meta.url), { recursive: true }, again);
  console.log("build: watching src-node/ and electron/ (Ctrl+C to stop)");
}
