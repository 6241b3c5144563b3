/**
 * The UI calls the app API (`/app/api/*`) one way (renderer/src/README.md "Loading and changing
 * data"): through its endpoint contract, an entry of `app/appEndpoints.ts` called with
 * `callEndpoint` (or `callEndpointWith`, renderer/src/api/endpoint.ts), built from the route of
 * the table the node registers its routes from (src-node/appContract/appRoutes.ts; checked
 * against a real node by endpointContract.test.ts). So no string or template literal anywhere
 * in renderer/src names an `/app/api` path: the routes are written in the table only, not even
 * in the entries' files. Comments may name routes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const RENDERER = join(ROOT, "renderer/src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** `file:line text` for every string or template literal of `text` naming `/app/api`. */
function appApiLiterals(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const out: string[] = [];
  const visit = (n: ts.Node) => {
    if (
      (ts.isStringLiteral(n) ||
        ts.isNoSubstitutionTemplateLiteral(n) ||
        ts.isTemplateHead(n) ||
        ts.isTemplateMiddle(n) ||
        ts.isTemplateTail(n)) &&
      n.text.includes("/app/api")
    ) {
      const line = source.getLineAndCharacterOfPosition(n.getStart()).line + 1;
      out.push(`${file}:${line} ${JSON.stringify(n.text)}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return out;
}

describe("[renderer] app API paths are written only in the shared table, never in the UI", () => {
  it("finds a hand-written app API path (so an empty list means something)", () => {
    const samples = [
      'const r = client.get("/app/api/backup", parseOverview);',
      "const KEYSTORE = '/app/api/wallet/keystore';",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a sample of source text
      "client.get(`/app/api/backup/jobs/${encodeURIComponent(id)}`, parseJob);",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a sample of source text
      "client.get(`${base}/x?next=${n}/app/api/peers`, p);",
      "const all = `/app/api`;",
      'const el = <a href="/app/api/node/log">log</a>;',
    ];
    for (const s of samples) expect(appApiLiterals("sample.tsx", s), s).toHaveLength(1);
    const fine = [
      "// GET /app/api/backup: the overview",
      "/** `POST /app/api/backup/start` */ const start = backupEndpoints.start;",
      "callEndpoint(client, backupEndpoints.job, { id });",
      'client.get("/cut", parseCut);',
      'const isApp = (p: string) => p.startsWith("/app/");',
    ];
    for (const s of fine) expect(appApiLiterals("sample.tsx", s), s).toEqual([]);
  });

  it("names no /app/api path anywhere in renderer/src", () => {
    const files = sourceFiles(RENDERER).map((f) => relative(ROOT, f));
    expect(files.length).toBeGreaterThan(150);
    expect(files).toContain("renderer/src/features/backup/endpoints.ts");
    const offenders = files.flatMap((f) => appApiLiterals(f, readFileSync(join(ROOT, f), "utf8")));
    expect(offenders).toEqual([]);
  });
});
