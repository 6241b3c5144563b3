/**
 * The UI calls the app API (`/app/api/*`) one way (renderer/src/README.md "Loading and changing
 * data"): through its endpoint contract, an entry of `app/appEndpoints.ts` called with
 * `callEndpoint` (or `callEndpointWith`, renderer/src/api/endpoint.ts), whose route the
 * contract test checks against a real node (endpointContract.test.ts). So no string or
 * template literal anywhere in renderer/src names an `/app/api` path, except in the contract's
 * own files: `api/endpoint.ts`, the entries (`api/appEndpoints.ts`, each feature's
 * `endpoints.ts`) and their list (`app/appEndpoints.ts`). Comments may name routes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const RENDERER = join(ROOT, "renderer/src");

/** The contract's files, where routes are written (paths from the repository's root). */
const CONTRACT = [
  /^renderer\/src\/api\/endpoint\.ts$/,
  /^renderer\/src\/api\/appEndpoints\.ts$/,
  /^renderer\/src\/app\/appEndpoints\.ts$/,
  /^renderer\/src\/features\/[^/]+\/endpoints\.ts$/,
];
const isContract = (path: string) => CONTRACT.some((r) => r.test(path));

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

describe("[renderer] app API paths are written only in the endpoint contract", () => {
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

  it("names no /app/api path in renderer/src outside the contract's files", () => {
    const files = sourceFiles(RENDERER).map((f) => relative(ROOT, f));
    expect(files.length).toBeGreaterThan(150);
    // The exempt files are the contract's as they are named today (no stale exemption).
    const contract = files.filter(isContract);
    expect(contract).toEqual(
      expect.arrayContaining([
        "renderer/src/api/endpoint.ts",
        "renderer/src/api/appEndpoints.ts",
        "renderer/src/app/appEndpoints.ts",
        "renderer/src/features/wallet/endpoints.ts",
        "renderer/src/features/backup/endpoints.ts",
        "renderer/src/features/explorer/endpoints.ts",
      ]),
    );
    const offenders = files
      .filter((f) => !isContract(f))
      .flatMap((f) => appApiLiterals(f, readFileSync(join(ROOT, f), "utf8")));
    expect(offenders).toEqual([]);
  });
});
