/**
 * The code's import graph as the layering rules see it (src-node/layers.ts): every relative
 * import (`import … from`, `export … from`, `import "…"`, `import("…")`, type-only ones
 * included) of the files under src-node/, electron/ and renderer/src/, resolved to a path
 * from the repository's root. Package imports are listed apart, for the browser-safety check.
 * Shared by test/unit/layering.test.ts and test/renderer/imports.test.ts so the two read the
 * code the same way.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export const repoRoot = resolve(import.meta.dirname, "..", "..");

/** The folders whose files the layering rules cover. */
export const LAYERED_ROOTS = ["src-node", "electron", "renderer/src"] as const;

export type ImportEdge = {
  /** The importing file, from the repository's root. */
  readonly from: string;
  /** The imported file, from the repository's root (as written, `.ts` included). */
  readonly to: string;
};

export type SourceFile = {
  readonly path: string;
  /** The text without comments (a comment may name `Buffer` or show an import). */
  readonly code: string;
  /** Relative imports, resolved. */
  readonly imports: readonly string[];
  /** Non-relative specifiers (`node:fs`, `@noble/hashes/blake2`, `react`). */
  readonly packages: readonly string[];
};

const SOURCE = /\.(?:ts|tsx|js|mjs|cjs)$/;
const SPECIFIER = /(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+)["']/g;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return filesUnder(p);
    return SOURCE.test(name) && !name.endsWith(".d.ts") ? [p] : [];
  });
}

/** Characters after which a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set([..."(,=:[!&|?{};+-*%~^"]); // not `<`: JSX's `</tag>`
const KEYWORDS_BEFORE_REGEX =
  /\b(?:return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/;

/**
 * Source text with its comments blanked (strings, template literals and regular expression
 * literals kept as they are, so `"/app/api/*"` or `/\/\*$/` hide nothing after them).
 */
export function withoutComments(text: string): string {
  let out = "";
  let i = 0;
  /** Last significant character of code written, for telling a regex from a division. */
  const regexMayStart = (): boolean => {
    let j = out.length - 1;
    while (j >= 0 && /\s/.test(out[j] as string)) j--;
    if (j < 0 || BEFORE_REGEX.has(out[j] as string)) return true;
    return KEYWORDS_BEFORE_REGEX.test(out.slice(Math.max(0, j - 8), j + 1));
  };
  const skipQuoted = (quote: string): void => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== quote && text[i] !== "\n") i += text[i] === "\\" ? 2 : 1;
    i++;
    out += text.slice(start, i);
  };
  const skipRegex = (): void => {
    const start = i;
    let inClass = false;
    i++;
    while (i < text.length && text[i] !== "\n" && (inClass || text[i] !== "/")) {
      if (text[i] === "\\") i++;
      else if (text[i] === "[") inClass = true;
      else if (text[i] === "]") inClass = false;
      i++;
    }
    i++;
    out += text.slice(start, i);
  };
  /** Code until an unmatched `}` (inside a template's `${…}`) or the end. */
  const code = (inTemplate: boolean): void => {
    let depth = 0;
    while (i < text.length) {
      const c = text[i] as string;
      const next = text[i + 1];
      if (c === "/" && next === "/") {
        while (i < text.length && text[i] !== "\n") i++;
      } else if (c === "/" && next === "*") {
        const end = text.indexOf("*/", i + 2);
        const stop = end === -1 ? text.length : end + 2;
        out += text.slice(i, stop).replace(/[^\n]/g, " ");
        i = stop;
      } else if (c === '"' || c === "'") {
        skipQuoted(c);
      } else if (c === "`") {
        template();
      } else if (c === "/" && regexMayStart()) {
        skipRegex();
      } else {
        if (c === "{") depth++;
        if (c === "}") {
          if (inTemplate && depth === 0) return;
          depth--;
        }
        out += c;
        i++;
      }
    }
  };
  const template = (): void => {
    out += "`";
    i++;
    while (i < text.length && text[i] !== "`") {
      if (text[i] === "\\") {
        out += text.slice(i, i + 2);
        i += 2;
      } else if (text[i] === "$" && text[i + 1] === "{") {
        out += "${";
        i += 2;
        code(true);
        out += "}";
        i++;
      } else {
        out += text[i];
        i++;
      }
    }
    out += "`";
    i++;
  };
  code(false);
  return out;
}

/** One source file, read and its imports resolved. */
export function readSource(path: string): SourceFile {
  const code = withoutComments(readFileSync(join(repoRoot, path), "utf8"));
  const imports: string[] = [];
  const packages: string[] = [];
  for (const m of code.matchAll(SPECIFIER)) {
    const spec = m[1] as string;
    if (spec.startsWith(".")) {
      imports.push(
        relative(repoRoot, resolve(repoRoot, dirname(path), spec))
          .split("\\")
          .join("/"),
      );
    } else {
      packages.push(spec);
    }
  }
  return { path, code, imports, packages };
}

/** Every source file under `roots` (paths from the repository's root), read. */
export function sourceFiles(roots: readonly string[] = LAYERED_ROOTS): SourceFile[] {
  return roots.flatMap((root) =>
    filesUnder(join(repoRoot, root)).map((f) =>
      readSource(relative(repoRoot, f).split("\\").join("/")),
    ),
  );
}

/** Every relative import of `files`. */
export function importEdges(files: readonly SourceFile[]): ImportEdge[] {
  return files.flatMap((f) => f.imports.map((to) => ({ from: f.path, to })));
}
