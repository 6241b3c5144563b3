/**
 * The compile step (build/compileNode.ts) on a small stand-in checkout: `.ts` imports become
 * `.js`, the output runs under plain Node, worker entries are found by their name, assets
 * (not the areas' notes) and `dist/package.json` land where code beside them looks, and a second run compiles only
 * what changed and removes what was deleted; the UI's build counts as current only while its
 * inputs are as they were. Also the launcher's root from either place.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { recordViteStep, viteStepIsCurrent } from "../../build/buildSteps.ts";
import { compiledPath, compileNode, workerEntries } from "../../build/compileNode.ts";
import { repoRootOf } from "../../electron/launch.ts";

const repo = resolve(import.meta.dirname, "..", "..");
const tmp = mkdtempSync(join(tmpdir(), "weft-compile-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function write(root: string, file: string, text: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

function standInCheckout(): string {
  const root = mkdtempSync(join(tmp, "checkout-"));
  symlinkSync(join(repo, "node_modules"), join(root, "node_modules"));
  write(root, "package.json", JSON.stringify({ name: "weft", version: "9.8.7", type: "module" }));
  write(root, "src-node/a/name.ts", 'export const name: string = "weft";\n');
  write(
    root,
    "src-node/a/main.ts",
    [
      'import { readFileSync } from "node:fs";',
      'import { name } from "./name.ts";',
      'const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));',
      'const pact = readFileSync(new URL("../g/pact/x.pact", import.meta.url), "utf8").trim();',
      'console.log([name, pkg.version, pact].join(" "));',
    ].join("\n"),
  );
  write(root, "src-node/g/pact/x.pact", "(module x)\n");
  write(root, "src-node/g/README.md", "# g\n");
  write(root, "src-node/m/fooWorker.ts", "export const worker = 1;\n");
  write(root, "electron/shell.ts", 'export type T = { a: number };\nexport const shell = "s";\n');
  write(root, "electron/preload.ts", "export {};\n");
  write(root, "electron/vite.preload.config.ts", "export {};\n");
  return root;
}

describe("[build] compileNode", () => {
  it("compiles file by file to dist/, and the output runs and finds its files", async () => {
    const root = standInCheckout();
    const r = await compileNode(root);
    expect([...r.compiled].sort()).toEqual([
      "electron/shell.ts",
      "src-node/a/main.ts",
      "src-node/a/name.ts",
      "src-node/m/fooWorker.ts",
    ]);
    expect(workerEntries(root)).toEqual(["src-node/m/fooWorker.ts"]);
    expect(existsSync(join(root, compiledPath("src-node/m/fooWorker.ts")))).toBe(true);
    expect(existsSync(join(root, "dist/src-node/a/main.js.map"))).toBe(true);
    expect(existsSync(join(root, "dist/electron/preload.js"))).toBe(false);
    // An area's notes are not run-time files.
    expect(existsSync(join(root, "dist/src-node/g/README.md"))).toBe(false);
    const main = readFileSync(join(root, "dist/src-node/a/main.js"), "utf8");
    expect(main).toContain('from "./name.js"');
    const run = spawnSync(process.execPath, [join(root, "dist/src-node/a/main.js")], {
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("weft 9.8.7 (module x)\n");
  });

  it("compiles again only what changed, removes the output of deleted sources and what derives from the old code", async () => {
    const root = standInCheckout();
    await compileNode(root);
    const derived = { derived: ["dist/derived"] };
    write(root, "dist/derived/x.json", "{}");
    expect((await compileNode(root, derived)).compiled).toEqual([]);
    expect(existsSync(join(root, "dist/derived/x.json"))).toBe(true);
    write(root, "src-node/a/name.ts", 'export const name: string = "changed";\n');
    rmSync(join(root, "src-node/m/fooWorker.ts"));
    const r = await compileNode(root, derived);
    expect(existsSync(join(root, "dist/derived"))).toBe(false);
    expect(r.compiled).toEqual(["src-node/a/name.ts"]);
    expect(r.removed).toEqual(["src-node/m/fooWorker.ts"]);
    expect(existsSync(join(root, "dist/src-node/m/fooWorker.js"))).toBe(false);
    rmSync(join(root, "dist/src-node/a/main.js"));
    expect((await compileNode(root)).compiled).toEqual(["src-node/a/main.ts"]);
    expect((await compileNode(root, { force: true })).compiled).toHaveLength(3);
  });
});

describe("[build] the launcher's checkout root", () => {
  it("is the same from electron/launch.ts and from dist/electron/launch.js", () => {
    expect(repoRootOf(pathToFileURL(join(repo, "electron", "launch.ts")).href)).toBe(`${repo}/`);
    expect(repoRootOf(pathToFileURL(join(repo, "dist", "electron", "launch.js")).href)).toBe(
      `${repo}/`,
    );
  });
});

describe("[build] the UI's build is skipped while its inputs are unchanged", () => {
  it("is current only with its output and the inputs it was built from", () => {
    const root = mkdtempSync(join(tmp, "ui-"));
    write(root, "package.json", "{}");
    write(root, "package-lock.json", "{}");
    write(root, "renderer/src/App.tsx", "export const App = 1;\n");
    expect(viteStepIsCurrent(root, "renderer")).toBe(false);
    recordViteStep(root, "renderer");
    expect(viteStepIsCurrent(root, "renderer")).toBe(false); // no output yet
    write(root, "dist/renderer/index.html", "<!doctype html>");
    expect(viteStepIsCurrent(root, "renderer")).toBe(true);
    write(root, "renderer/src/App.tsx", "export const App = 2;\n");
    expect(viteStepIsCurrent(root, "renderer")).toBe(false);
    recordViteStep(root, "renderer");
    write(root, "renderer/src/New.tsx", "export {};\n");
    expect(viteStepIsCurrent(root, "renderer")).toBe(false);
    recordViteStep(root, "renderer");
    write(root, "package-lock.json", '{"changed":true}');
    expect(viteStepIsCurrent(root, "renderer")).toBe(false);
    recordViteStep(root, "renderer");
    // The compiled node and the other steps' outputs are not its inputs.
    write(root, "src-node/x.ts", "export {};\n");
    write(root, "dist/electron/preload.cjs", "");
    expect(viteStepIsCurrent(root, "renderer")).toBe(true);
  });
});
