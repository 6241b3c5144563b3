/**
 * The renderer loads data one way (renderer/src/README.md "Loading and changing data"): reads
 * through the query options of each feature's `api.ts`, changes through mutations. So no
 * `useEffect` (or `useLayoutEffect`) body anywhere in `renderer/src/features/` fetches: none
 * calls `fetch`, the node client, the contract endpoints or the desktop bridge (`client.…`,
 * `pact.…`, `desktop.…`, `restart.…`, a feature's `…Calls.…`, `unwrap`, `unwrapBridge`),
 * asks the query cache to fetch (`fetchQuery`, `prefetchQuery`, `ensureQueryData`), chains
 * `.then`, awaits, or polls with `setInterval`. An effect may still subscribe to a store,
 * listen to the window, follow a query's answers, invalidate queries (which the query cache
 * then asks again), or tick a clock (`setInterval` whose callback only sets state).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const FEATURES = join(ROOT, "renderer/src/features");

const EFFECTS = new Set(["useEffect", "useLayoutEffect"]);
const CALLS = new Set(["fetch", "unwrap", "unwrapBridge"]);
/** Services and endpoint tables whose methods reach the node or the desktop app. */
const CLIENTS = new Set(["client", "pact", "desktop", "restart"]);
const isCalls = (name: string) => CLIENTS.has(name) || /Calls$/.test(name);
/** The query cache's methods that fetch (invalidating is fine: the queries then ask). */
const CACHE_FETCHES = new Set(["fetchQuery", "prefetchQuery", "ensureQueryData"]);

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

/** A clock's tick: `() => setNow(…)`, a function whose only work is one state setter's call. */
function onlySetsState(f: ts.Node | undefined): boolean {
  if (f === undefined || !(ts.isArrowFunction(f) || ts.isFunctionExpression(f))) return false;
  let call: ts.Node = f.body;
  if (ts.isBlock(call)) {
    const only = call.statements[0];
    if (call.statements.length !== 1 || only === undefined || !ts.isExpressionStatement(only)) {
      return false;
    }
    call = only.expression;
  }
  return (
    ts.isCallExpression(call) &&
    ts.isIdentifier(call.expression) &&
    /^set[A-Z]/.test(call.expression.text)
  );
}

/** What fetches inside one effect body, in words. */
function fetchingIn(body: ts.Node): string[] {
  const found: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isAwaitExpression(n)) found.push("awaits");
    if (ts.isCallExpression(n)) {
      const e = n.expression;
      if (ts.isIdentifier(e) && CALLS.has(e.text)) found.push(`calls ${e.text}`);
      if (ts.isIdentifier(e) && e.text === "setInterval" && !onlySetsState(n.arguments[0])) {
        found.push("polls with setInterval");
      }
      if (ts.isPropertyAccessExpression(e)) {
        if (e.name.text === "then") found.push("chains .then");
        if (CACHE_FETCHES.has(e.name.text)) found.push(`calls ${e.name.text}`);
        const base = baseName(e);
        if (base !== null && isCalls(base)) found.push(`calls ${base}.${e.name.text}`);
      }
    }
    if (
      ts.isPropertyAccessExpression(n) &&
      ts.isIdentifier(n.name) &&
      (n.name.text === "client" || n.name.text === "desktop")
    ) {
      found.push(`reaches the ${n.name.text === "client" ? "node client" : "desktop bridge"}`);
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

describe("[renderer] the features load no data from effects", () => {
  it("finds what an effect that fetches looks like (so an empty list means something)", () => {
    const samples = [
      "useEffect(() => { void client.walletKeystore().then((r) => set(r)); }, []);",
      "useEffect(() => { const t = setInterval(() => void tick(), 3000); return () => clearInterval(t); }, []);",
      "React.useEffect(() => { void (async () => { await pact.poll(0, []); })(); }, []);",
      "useLayoutEffect(() => { fetch('/x'); }, []);",
      "useEffect(() => { void unwrap(walletCalls.pending(services.client)); }, []);",
      "useEffect(async () => { load(); }, []);",
      "useEffect(() => { desktop.openFolder(dir); }, [dir]);",
      "useEffect(() => { if (live) void desktop.readSettings(); }, [live]);",
      "useEffect(() => { void backupCalls.list(services.client); }, []);",
      "useEffect(() => { void unwrapBridge(api.appInfo()); }, []);",
      "useEffect(() => { void queries.fetchQuery(listQuery(c)); }, []);",
      "useEffect(() => { restart.restart(); }, []);",
      "useEffect(() => { const t = setInterval(() => { setNow(Date.now()); void load(); }, 1000); return () => clearInterval(t); }, []);",
    ];
    for (const s of samples) expect(effectsThatFetch("sample.tsx", s), s).toHaveLength(1);
    const fine = [
      "useEffect(() => chain.onBlock(() => void queries.invalidateQueries({ queryKey: k })), [chain]);",
      "useEffect(() => { window.addEventListener('keydown', f); return () => window.removeEventListener('keydown', f); }, []);",
      "useEffect(() => { if (restored) setUnlocked(false); }, [restored]);",
      "const q = useQuery(walletRecordsQuery(client));",
      "useEffect(() => { const t = setInterval(() => setNow(Date.now()), 1000); return () => clearInterval(t); }, []);",
      "useEffect(() => { if (list !== undefined) dispatch({ type: 'polled', list }); }, [list]);",
      "useEffect(() => dismiss, [dismiss]);",
    ];
    for (const s of fine) expect(effectsThatFetch("sample.tsx", s), s).toEqual([]);
  });

  it("has no useEffect-driven fetching anywhere in renderer/src/features", () => {
    const files = sourceFiles(FEATURES);
    expect(files.length).toBeGreaterThan(120);
    // Every feature is in (wallet, node, explorer, backup).
    for (const f of ["wallet", "node", "explorer", "backup"]) {
      expect(files.some((p) => p.startsWith(join(FEATURES, f)))).toBe(true);
    }
    const offenders = files.flatMap((f) =>
      effectsThatFetch(relative(ROOT, f), readFileSync(f, "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
