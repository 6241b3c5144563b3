/**
 * Content fingerprints of build inputs, and the stamps a build step leaves in `dist/.build/`,
 * so that `npm start` redoes only the steps (and, for the node, the files) whose inputs
 * changed. Contents, not modification times: a `git checkout` touches files it does not change.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

/** Files under `dir` (recursively, `/`-separated paths relative to `root`), sorted. */
export function listFiles(root: string, dir: string, keep: (rel: string) => boolean): string[] {
  const base = join(root, dir);
  if (!existsSync(base)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(base, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const rel = relative(root, join(entry.parentPath, entry.name)).split(sep).join("/");
    if (rel.split("/").includes("node_modules")) continue;
    if (keep(rel)) out.push(rel);
  }
  return out.sort();
}

export function hashText(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

/** One hash over the paths and contents of `files` (relative to `root`). */
export function hashFiles(root: string, files: readonly string[]): string {
  const h = createHash("sha256");
  for (const f of files) {
    h.update(f);
    h.update("\0");
    h.update(readFileSync(join(root, f)));
    h.update("\0");
  }
  return h.digest("hex");
}

/** A stamp: whatever JSON a step wants to compare next time; null when absent or unreadable. */
export function readStamp<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return null;
  }
}

export function writeStamp(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 1)}\n`);
}
