/**
 * The wallet loads data one way (renderer/src/README.md "Loading and changing data"): reads
 * through the query options of `features/wallet/api.ts`, changes through mutations. So no
 * `useEffect` (or `useLayoutEffect`) body in `features/wallet/` fetches: none calls `fetch`,
 * the node client or the contract endpoints (`client.…`, `pact.…`, `walletCalls.…`, `unwrap`),
 * chains `.then`, awaits, or polls with `setInterval`. An effect may still subscribe to a store,
 * listen to the window, or invalidate queries (which the query cache then asks again).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const WALLET = join(ROOT, "renderer/src/features/wallet");

const EFFECTS = new Set(["useEffect", "useLayoutEffect"]);
const CALLS = new Set(["fetch", "setInterval", "unwrap"]);
const CLIENTS = new Set(["client", "pact", "walletCalls"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** The name an effect hook is called by: `useEffect(…)` or `React.useEffect(…)`. */
function calleeName(call: ts.CallExpression): string | null {
  const e = call.expression;
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return null;
}

/** The leftmost name of `a.b.c` (`a`), or of `a?.b`. */
function baseName(e: ts.Expression): string | null {
  let x: ts.Expression = e;
  while (ts.isPropertyAccessExpression(x) || ts.isCallExpression(x) || ts.isNonNullExpression(x)) {
    x = x.expression;
  }
  return ts.isIdentifier(x) ? x.text : null;
}

/** What fetches inside one effect body, in words. */
function fetchingIn(body: ts.Node): string[] {
  const found: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isAwaitExpression(n)) found.push("awaits");
    if (ts.isCallExpression(n)) {
      const e = n.expression;
      if (ts.isIdentifier(e) && CALLS.has(e.text)) found.push(`calls ${e.text}`);
      if (ts.isPropertyAccessExpression(e)) {
        if (e.name.text === "then") found.push("chains .then");
        const base = baseName(e);
        if (base !== null && CLIENTS.has(base)) found.push(`calls ${base}.${e.name.text}`);
      }
    }
    if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.name) && n.name.text === "client") {
      found.push("reaches the node client");
    }
    ts.forEachChild(n, visit);
  };
  visit(body);
  return found;
}

/** `file:line what` for every effect that fetches in `text`. */
function effectsThatFetch(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const out: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && EFFECTS.has(calleeName(n) ?? "")) {
      const body = n.arguments[0];
      if (body !== undefined) {
        const found = fetchingIn(body);
        const isAsync =
          (ts.isArrowFunction(body) || ts.isFunctionExpression(body)) &&
          (ts.getCombinedModifierFlags(body) & ts.ModifierFlags.Async) !== 0;
        if (isAsync) found.push("is async");
        if (found.length > 0) {
          const line = source.getLineAndCharacterOfPosition(n.getStart()).line + 1;
          out.push(`${file}:${line} ${[...new Set(found)].join(", ")}`);
        }
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return out;
}

describe("[renderer] the wallet loads no data from effects", () => {
  it("finds what an effect that fetches looks like (so an empty list means something)", () => {
    const samples = [
      "useEffect(() => { void client.walletKeystore().then((r) => set(r)); }, []);",
      "useEffect(() => { const t = setInterval(() => void tick(), 3000); return () => clearInterval(t); }, []);",
      "React.useEffect(() => { void (async () => { await pact.poll(0, []); })(); }, []);",
      "useLayoutEffect(() => { fetch('/x'); }, []);",
      "useEffect(() => { void unwrap(walletCalls.pending(services.client)); }, []);",
      "useEffect(async () => { load(); }, []);",
    ];
    for (const s of samples) expect(effectsThatFetch("sample.tsx", s), s).toHaveLength(1);
    const fine = [
      "useEffect(() => chain.onBlock(() => void queries.invalidateQueries({ queryKey: k })), [chain]);",
      "useEffect(() => { window.addEventListener('keydown', f); return () => window.removeEventListener('keydown', f); }, []);",
      "useEffect(() => { if (restored) setUnlocked(false); }, [restored]);",
      "const q = useQuery(walletRecordsQuery(client));",
    ];
    for (const s of fine) expect(effectsThatFetch("sample.tsx", s), s).toEqual([]);
  });

  it("has no useEffect-driven fetching in features/wallet", () => {
    const files = sourceFiles(WALLET);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((f) =>
      effectsThatFetch(relative(ROOT, f), readFileSync(f, "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
