/**
 * Starts a worker thread from a module of the node's own source tree.
 *
 * Sources are TypeScript run through tsx, and Node 20 ignores `--import` in a
 * worker's execArgv, so a tiny bootstrap registers tsx inside the thread and
 * then imports the entry (registering it twice, on Nodes that pass hooks on to
 * workers, is harmless). This works the same under Vitest, `npx tsx` and
 * `node bin/weft.js` (which registers tsx only in the main thread). An entry
 * that is already JavaScript (compiled output) is started directly, and so is the
 * compiled sibling of a `.ts` entry when this file itself runs compiled (`npm run build`
 * writes `fooWorker.js` beside the compiled code that names `./fooWorker.ts`).
 * Every worker entry point of the node starts through this function, so a
 * build step has one place to look for them: files named `*Worker.ts`.
 * @module
 */
import { type ResourceLimits, Worker } from "node:worker_threads";

// Plain JavaScript that runs as CommonJS or as ESM (hence import(), not require()).
const BOOTSTRAP = `
import("node:worker_threads")
  .then(({ workerData }) => import(workerData.loader).then((tsx) => {
    tsx.register();
    return import(workerData.entry);
  }));
`;

/** True when this module is the compiled `.js` (then so are its callers and their workers). */
const COMPILED = import.meta.url.endsWith(".js");

/**
 * A new thread running `entry` (a URL, usually `new URL("./fooWorker.ts", import.meta.url)`);
 * `data` reaches it as `workerData.data`. `resourceLimits` bound the thread's heap: a thread
 * that reaches them stops (its `exit` and `error` events say why), the process goes on.
 */
export function spawnWorker(
  entry: URL,
  data: unknown,
  resourceLimits?: ResourceLimits | undefined,
): Worker {
  if (COMPILED && entry.pathname.endsWith(".ts")) {
    entry = new URL(entry.href.replace(/\.ts$/, ".js"));
  }
  const limits = resourceLimits === undefined ? {} : { resourceLimits };
  if (entry.pathname.endsWith(".js")) {
    return new Worker(entry, { execArgv: [], workerData: { data }, ...limits });
  }
  const loader = import.meta.resolve("tsx/esm/api");
  // execArgv: [] so that flags of the parent (e.g. --input-type) do not reach the bootstrap.
  return new Worker(BOOTSTRAP, {
    eval: true,
    execArgv: [],
    workerData: { loader, entry: entry.href, data },
    ...limits,
  });
}
