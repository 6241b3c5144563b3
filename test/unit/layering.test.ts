/**
 * Keeps the dependency direction of the code: every relative import of src-node/, electron/
 * and renderer/src/ that crosses an area is one src-node/layers.ts allows, every permission
 * of that table is used by some import (so it stays the code's graph, not a wish list), and
 * the table lists each area after those it imports. What the renderer bundles from outside
 * renderer/ runs in a browser as it is: no Node built-in, SQLite, Fastify or Node global.
 * (ARCHITECTURE.md's area table is checked against the same table: architectureMap.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { AREAS, type Area, areaOf, LAYERS, mayImport } from "../../src-node/layers.ts";
import {
  importEdges,
  readSource,
  type SourceFile,
  sourceFiles,
  withoutComments,
} from "../support/importGraph.ts";

/** The only packages code the renderer bundles from outside renderer/ may import (pure JavaScript). */
const BROWSER_PACKAGES: readonly string[] = ["@noble/hashes", "@noble/ed25519", "@scure/base"];
/** Node's globals, which a browser does not have. */
const NODE_GLOBALS = /\b(Buffer|process|require|__dirname|__filename)\b/g;
/** Files of src-node/ that belong to no area: the table itself. */
const OUTSIDE_AREAS = ["src-node/layers.ts"];

const files = sourceFiles();
const edges = importEdges(files);

function packageOf(spec: string): string {
  const parts = spec.split("/");
  return (spec.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}

describe("[architecture] layering (src-node/layers.ts)", () => {
  it("reads imports past comments, strings and regular expressions that look like comments", () => {
    const code = withoutComments(
      [
        '/** import "./inComment.ts" */',
        'const glob = "/app/api/*"; const re = /\\/\\*[/]/g; const d = 1 / 2 / 3;',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
        'const t = `${glob}/* ${{ a: 1 }.a}`; // import "./lineComment.ts"',
        'import { x } from "./real.ts";',
        'const later = await import("../dynamic.ts");',
      ].join("\n"),
    );
    const specs = [...code.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]);
    expect(specs).toEqual(["./real.ts", "../dynamic.ts"]);
  });

  it("every file belongs to an area of the table", () => {
    const orphans = files
      .filter((f) => areaOf(f.path) === undefined && !OUTSIDE_AREAS.includes(f.path))
      .map((f) => `${f.path}: no area of src-node/layers.ts (add one, or put it in an area)`);
    expect(orphans).toEqual([]);
  });

  it("every import between areas is one the table allows", () => {
    const violations = edges.flatMap(({ from, to }) => {
      const area = areaOf(from);
      if (area === undefined || mayImport(area, to)) return [];
      return [`${from} (${area}) imports ${to} (${areaOf(to) ?? "no area"})`];
    });
    expect(violations).toEqual([]);
  });

  it("every permission of the table is used by an import", () => {
    const used = new Set<string>();
    for (const { from, to } of edges) {
      const a = areaOf(from);
      const b = areaOf(to);
      if (a === undefined || a === b) continue;
      used.add(`${a} → ${to}`);
      if (b !== undefined) used.add(`${a} → ${b}`);
    }
    const unused = AREAS.flatMap((a) =>
      (LAYERS[a] as readonly string[])
        .filter((p) => !used.has(`${a} → ${p}`))
        .map((p) => `${a} → ${p}: no import uses it (remove it here and in ARCHITECTURE.md)`),
    );
    expect(unused).toEqual([]);
  });

  it("lists every area after the areas it imports", () => {
    const late = AREAS.flatMap((a, i) =>
      (LAYERS[a] as readonly string[])
        .map((p) => [p, areaOf(p) ?? (p as Area)] as const)
        .filter(([, b]) => !(AREAS.indexOf(b) >= 0 && AREAS.indexOf(b) < i))
        .map(([p]) => `${a} imports ${p}, listed after it`),
    );
    expect(late).toEqual([]);
  });

  it("nothing but electron/ imports electron", () => {
    const importers = files
      .filter((f) => areaOf(f.path) !== "electron" && f.packages.includes("electron"))
      .map((f) => f.path);
    expect(importers).toEqual([]);
  });

  it("what the renderer bundles from outside renderer/ is browser-safe", () => {
    // The areas and files the renderer may import, and everything they import in turn.
    const reached = new Map<string, SourceFile>();
    const visit = (f: SourceFile): void => {
      if (reached.has(f.path)) return;
      reached.set(f.path, f);
      for (const to of f.imports) visit(readSource(to));
    };
    for (const permission of LAYERS.renderer) {
      if (permission.includes("/")) visit(readSource(permission));
      else for (const f of files) if (areaOf(f.path) === permission) visit(f);
    }
    expect([...reached.keys()]).toContain("src-node/errors/nodeError.ts");
    const violations: string[] = [];
    for (const f of reached.values()) {
      for (const spec of f.packages) {
        if (!BROWSER_PACKAGES.includes(packageOf(spec)))
          violations.push(`${f.path} imports ${spec}`);
      }
      for (const g of f.code.matchAll(NODE_GLOBALS)) {
        violations.push(`${f.path} uses the Node global ${g[1]}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("the renderer imports no Node built-in, SQLite or Fastify", () => {
    const violations = files
      .filter((f) => areaOf(f.path) === "renderer")
      .flatMap((f) =>
        f.packages
          .filter((s) => /^(?:node:|better-sqlite3|fastify|@fastify\/)/.test(s))
          .map((s) => `${f.path} imports ${s}`),
      );
    expect(violations).toEqual([]);
  });
});
