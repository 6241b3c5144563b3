/**
 * Compiles the node (`src-node/`) and the desktop shell (`electron/`) to JavaScript in
 * `dist/`, one output file per source file at the same relative place (`src-node/a/b.ts` →
 * `dist/src-node/a/b.js`), with esbuild. Relative imports are rewritten from `.ts` to `.js`;
 * packages stay imports of `node_modules`. Because every file compiles on its own, only
 * the files whose contents changed are compiled again (stamp in `dist/.build/node.json`).
 *
 * Keeping the layout keeps code that finds files next to itself working (docs/building.md):
 * - worker entries (`*Worker.ts`) become `*Worker.js` beside the code that starts them, and
 *   `spawnWorker` starts the `.js` sibling of a `.ts` URL when it runs compiled;
 * - files under `src-node/` that are not TypeScript (the genesis `.pact` sources) are copied,
 *   except the areas' `README.md` (developers' notes, not read at run time);
 * - `dist/package.json` carries the name, version and `"type": "module"`, so code reading
 *   `../../package.json` from `dist/src-node/…/` finds the version.
 * Source maps are written next to each file (`.js.map`) and never packaged.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Plugin } from "esbuild";
import { build } from "esbuild";
import { hashFiles, hashText, listFiles, readStamp, writeStamp } from "./inputStamp.ts";

/** The compiled output's folder, relative to the repository. */
export const COMPILED_DIR = "dist";
/** The source folders compiled into it. */
export const SOURCE_DIRS = ["src-node", "electron"] as const;

/** TypeScript sources compiled one to one (not the preload, which Vite bundles, nor configs). */
export function nodeSources(repo: string): string[] {
  return SOURCE_DIRS.flatMap((dir) =>
    listFiles(
      repo,
      dir,
      (f) =>
        f.endsWith(".ts") &&
        !f.endsWith(".d.ts") &&
        !f.endsWith(".config.ts") &&
        f !== "electron/preload.ts",
    ),
  );
}

/** Non-TypeScript files the node reads at run time from beside its code (copied as they are). */
export function nodeAssets(repo: string): string[] {
  return listFiles(repo, "src-node", (f) => !f.endsWith(".ts") && !f.endsWith(".md"));
}

/** Worker thread entry points: every `*Worker.ts` (they all start through `spawnWorker`). */
export function workerEntries(repo: string): string[] {
  return nodeSources(repo).filter((f) => /Worker\.ts$/.test(f));
}

/** Where `source` (a `.ts` path relative to the repository) compiles to. */
export function compiledPath(source: string): string {
  return `${COMPILED_DIR}/${source.replace(/\.ts$/, ".js")}`;
}

const ESBUILD_OPTIONS = {
  platform: "node",
  format: "esm",
  target: "node20.19",
  sourcemap: "linked",
  sourcesContent: false,
  logLevel: "warning",
  // Every import stays an import (see the plugin), so this bundles nothing: it only lets
  // esbuild's resolver rewrite the relative `.ts` specifiers.
  bundle: true,
} as const;

/** Leaves every import as it is, except that a relative `./x.ts` becomes `./x.js`. */
const keepImports: Plugin = {
  name: "weft-keep-imports",
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === "entry-point") return undefined;
      if (args.path.startsWith("./") || args.path.startsWith("../")) {
        return { path: args.path.replace(/\.ts$/, ".js"), external: true };
      }
      return { path: args.path, external: true };
    });
  },
};

type NodeStamp = { readonly builder: string; readonly files: Record<string, string> };

export type CompileResult = {
  /** Sources compiled in this run (all of them on the first run or with `force`). */
  readonly compiled: readonly string[];
  readonly removed: readonly string[];
  readonly total: number;
};

/** What makes every earlier output stale: this compiler's own code, options and esbuild. */
function builderFingerprint(repo: string): string {
  const require = createRequire(join(repo, "package.json"));
  const esbuildVersion = (require("esbuild/package.json") as { version: string }).version;
  return hashText(
    [
      readFileSync(new URL(import.meta.url)),
      JSON.stringify(ESBUILD_OPTIONS),
      esbuildVersion,
      readFileSync(join(repo, "package.json"), "utf8"),
    ].join("\n"),
  );
}

/**
 * Compiles what changed since the last run (everything with `force`), removes the output of
 * deleted sources, copies the assets and writes `dist/package.json`.
 */
export async function compileNode(
  repo: string,
  options: {
    force?: boolean;
    /** Paths under the repository derived from the compiled code, removed before it changes. */
    derived?: readonly string[];
  } = {},
): Promise<CompileResult> {
  const stampFile = join(repo, COMPILED_DIR, ".build", "node.json");
  const sources = nodeSources(repo);
  const builder = builderFingerprint(repo);
  const old = options.force ? null : readStamp<NodeStamp>(stampFile);
  const previous = old !== null && old.builder === builder ? old.files : {};
  const files: Record<string, string> = {};
  const changed: string[] = [];
  for (const source of sources) {
    const hash = hashFiles(repo, [source]);
    files[source] = hash;
    if (previous[source] !== hash || !existsSync(join(repo, compiledPath(source)))) {
      changed.push(source);
    }
  }
  const removed = Object.keys(old?.files ?? {}).filter((f) => !(f in files));
  if (changed.length > 0 || removed.length > 0) {
    for (const d of options.derived ?? []) rmSync(join(repo, d), { recursive: true, force: true });
  }
  for (const source of removed) {
    const out = join(repo, compiledPath(source));
    rmSync(out, { force: true });
    rmSync(`${out}.map`, { force: true });
  }
  if (changed.length > 0) {
    await build({
      ...ESBUILD_OPTIONS,
      absWorkingDir: repo,
      entryPoints: changed,
      outdir: COMPILED_DIR,
      outbase: ".",
      plugins: [keepImports],
    });
  }
  for (const asset of nodeAssets(repo)) {
    const to = join(repo, COMPILED_DIR, asset);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(join(repo, asset), to);
  }
  const pkg = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  writeStamp(join(repo, COMPILED_DIR, "package.json"), {
    name: pkg.name,
    version: pkg.version,
    private: true,
    type: "module",
  });
  // Written last: a build that failed half-way is redone in full next time.
  writeStamp(stampFile, { builder, files } satisfies NodeStamp);
  return { compiled: changed, removed, total: sources.length };
}
