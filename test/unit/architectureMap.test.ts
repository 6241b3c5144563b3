/**
 * ARCHITECTURE.md stays a map a newcomer reads in ten minutes, and stays true: at most 250
 * lines, no table cell over 400 characters, its area table's rows are the areas of
 * src-node/layers.ts in the same (dependency) order with the same "may import" column, each
 * area has its README.md saying the same, and every file the map and the READMEs name exists
 * (so a rename shows here, not months later to a confused reader).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { AREAS, type Area, LAYERS } from "../../src-node/layers.ts";
import { repoRoot } from "../support/importGraph.ts";

const MAX_LINES = 250;
const MAX_CELL = 400;

/** Where each area's notes live. */
function readmeOf(area: Area): string {
  if (area === "node.ts") return "src-node/README.md";
  if (area === "electron") return "electron/README.md";
  if (area === "renderer") return "renderer/src/README.md";
  return `src-node/${area}/README.md`;
}

const map = readFileSync(join(repoRoot, "ARCHITECTURE.md"), "utf8");

/** The cells of a Markdown table row (`\|` inside a cell is text). */
function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

/** Backticked names in a text: `a`, `b/` → ["a", "b"]. */
function namesIn(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => (m[1] as string).replace(/\/$/, ""));
}

/** The area a row of the area table names (`errors/`, `node.ts`, `renderer/src/`). */
function areaOfRow(cell: string): string {
  const name = namesIn(cell)[0] ?? cell;
  return name === "renderer/src" ? "renderer" : name;
}

function sorted(list: readonly string[]): string[] {
  return [...list].sort();
}

/** Every file under the code and docs folders, by base name (for bare names like `blockDb.ts`). */
const knownNames = new Set(
  ["src-node", "electron", "renderer", "test", "build", "docs"].flatMap((dir) => {
    const walk = (d: string): string[] =>
      readdirSync(d).flatMap((n) => {
        const p = join(d, n);
        return statSync(p).isDirectory() ? walk(p) : [n];
      });
    return walk(join(repoRoot, dir));
  }),
);

/** Backticked file names of `text` (in `doc`) that name no file. */
function missingFiles(doc: string, text: string): string[] {
  const bases = [dirname(doc), ".", "src-node", "renderer/src"];
  return namesIn(text)
    .filter((n) => /^[\w./-]+\.(?:ts|tsx|md)$/.test(n) && !n.startsWith("../"))
    .filter(
      (n) =>
        !bases.some((b) => existsSync(join(repoRoot, b, n))) &&
        (n.includes("/") || !knownNames.has(basename(n))),
    )
    .map((n) => `${doc} names \`${n}\`, which does not exist`);
}

describe("[architecture] ARCHITECTURE.md is a short map", () => {
  it(`has at most ${MAX_LINES} lines and no table cell over ${MAX_CELL} characters`, () => {
    const lines = map.split("\n");
    expect(lines.length - (map.endsWith("\n") ? 1 : 0)).toBeLessThanOrEqual(MAX_LINES);
    const long = lines
      .filter((l) => l.trimStart().startsWith("|"))
      .flatMap(cellsOf)
      .filter((c) => c.length > MAX_CELL)
      .map((c) => `${c.length} characters: ${c.slice(0, 60)}…`);
    expect(long).toEqual([]);
  });

  it("lists the areas of src-node/layers.ts in its order, each with the table's imports", () => {
    const rows = map.split("\n").filter((l) => l.trimStart().startsWith("|"));
    const header = rows.findIndex((l) => /\|\s*may import\s*\|/i.test(l));
    expect(header, "a table with a 'may import' column").toBeGreaterThanOrEqual(0);
    const columns = cellsOf(rows[header] as string);
    const importsAt = columns.findIndex((c) => /may import/i.test(c));
    const table = new Map<string, string[]>();
    for (const row of rows.slice(header + 2)) {
      const cells = cellsOf(row);
      if (cells.length !== columns.length) break;
      table.set(areaOfRow(cells[0] as string), sorted(namesIn(cells[importsAt] as string)));
    }
    expect([...table.keys()]).toEqual(AREAS);
    for (const area of AREAS) {
      expect(table.get(area), `the '${area}' row's "may import"`).toEqual(sorted(LAYERS[area]));
    }
  });

  it("has a README.md per area whose 'May import' line is the table's", () => {
    for (const area of AREAS) {
      const path = readmeOf(area);
      expect(existsSync(join(repoRoot, path)), path).toBe(true);
      const text = readFileSync(join(repoRoot, path), "utf8");
      const line = /^\*\*May import:\*\*(.*)$/m.exec(text)?.[1];
      expect(line, `${path}: a "**May import:**" line`).toBeDefined();
      expect(sorted(namesIn(line as string)), `${path}'s "May import"`).toEqual(
        sorted(LAYERS[area]),
      );
    }
  });

  it("names only files that exist", () => {
    const docs = ["ARCHITECTURE.md", ...AREAS.map(readmeOf)];
    const missing = docs.flatMap((d) => missingFiles(d, readFileSync(join(repoRoot, d), "utf8")));
    expect(missing).toEqual([]);
  });
});
