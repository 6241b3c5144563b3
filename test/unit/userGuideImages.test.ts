/**
 * The user guide's screenshots (docs/user-guide.md, docs/guide/): every image the guide links
 * exists, is a PNG of the e2e tests' fixed viewport, stays small and has alternative text;
 * every image is taken by an e2e test (a `saveGuideScreenshot(page, "<name>")` call in
 * test/e2e/, and `npm run guide:screenshots` runs every such file with
 * `WEFT_GUIDE_SCREENSHOTS=1`, which alone writes them into docs/guide/images/, so an ordinary
 * e2e run leaves the tree alone); and no image lies in docs/guide/images/ that the guide
 * does not link.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  GUIDE_VIEWPORT,
  guideImagesDir,
  guideScreenshotsDir,
} from "../e2e/support/guideScreenshot.ts";

const repo = resolve(import.meta.dirname, "..", "..");
const docs = join(repo, "docs");
const imagesDir = join(docs, "guide", "images");
/** Largest committed screenshot. */
const MAX_BYTES = 200 * 1024;
/**
 * Pages the guide must show (issue 17: wallet create, accounts, send review; explorer, backup,
 * node; issue 36: history, multi-signature, dapp signing, the forgotten password, every
 * explorer page the guide describes).
 */
const REQUIRED = [
  "wallet-create-phrase",
  "wallet-accounts",
  "wallet-send-review",
  "wallet-history",
  "wallet-multisig",
  "wallet-dapp-request",
  "wallet-forgot-password",
  "explorer-braid",
  "explorer-chain",
  "explorer-block",
  "explorer-transaction",
  "explorer-account",
  "explorer-module",
  "backup-page",
  "node-page-mining",
];

function markdownFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? markdownFiles(p) : p.endsWith(".md") ? [p] : [];
  });
}

type ImageLink = { readonly from: string; readonly alt: string; readonly target: string };

function imageLinks(file: string): ImageLink[] {
  const text = readFileSync(file, "utf8");
  const links: ImageLink[] = [];
  for (const m of text.matchAll(/!\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    links.push({ from: file, alt: m[1] ?? "", target: m[2] ?? "" });
  }
  for (const m of text.matchAll(/<img\s[^>]*src="([^"]+)"[^>]*>/g)) {
    const alt = /\balt="([^"]*)"/.exec(m[0])?.[1] ?? "";
    links.push({ from: file, alt, target: m[1] ?? "" });
  }
  return links;
}

/** Width and height from a PNG's IHDR chunk; throws when the bytes are not a PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (!bytes.subarray(0, 8).equals(signature) || bytes.toString("ascii", 12, 16) !== "IHDR") {
    throw new Error("not a PNG");
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Names passed to saveGuideScreenshot by the e2e tests, and the files that pass them. */
function takenByTests(): { names: Set<string>; files: Set<string> } {
  const dir = join(repo, "test", "e2e");
  const names = new Set<string>();
  const files = new Set<string>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".e2e.ts"))) {
    const text = readFileSync(join(dir, f), "utf8");
    for (const m of text.matchAll(/saveGuideScreenshot\(\s*\w+\s*,\s*"([^"]+)"/g)) {
      names.add(m[1] as string);
      files.add(`test/e2e/${f}`);
    }
  }
  return { names, files };
}

const guide = [join(docs, "user-guide.md"), ...markdownFiles(join(docs, "guide"))].filter(
  existsSync,
);
const links = guide.flatMap(imageLinks).filter((l) => !/^[a-z]+:/.test(l.target));

describe("[docs] the user guide's screenshots", () => {
  it("links every page the guide must show", () => {
    const linked = new Set(links.map((l) => resolve(dirname(l.from), l.target)));
    for (const name of REQUIRED) expect(linked).toContain(join(imagesDir, `${name}.png`));
  });

  it("links only images that exist, at the fixed viewport, small, with alternative text", () => {
    expect(links.length).toBeGreaterThan(0);
    for (const l of links) {
      const where = `${relative(repo, l.from)} → ${l.target}`;
      const path = resolve(dirname(l.from), l.target);
      expect(existsSync(path), `${where} exists`).toBe(true);
      expect(l.alt.trim(), `${where} has alternative text`).not.toBe("");
      const bytes = readFileSync(path);
      expect(pngSize(bytes), where).toEqual(GUIDE_VIEWPORT);
      expect(bytes.length, `${where} is at most ${MAX_BYTES} bytes`).toBeLessThanOrEqual(MAX_BYTES);
    }
  });

  it("are written to the guide only on request, by a script that runs every file taking one", () => {
    expect(guideScreenshotsDir({})).not.toBe(guideImagesDir);
    expect(relative(repo, guideScreenshotsDir({}))).toMatch(/^test\/e2e\/artifacts\//);
    expect(guideScreenshotsDir({ WEFT_GUIDE_SCREENSHOTS: "1" })).toBe(guideImagesDir);
    const scripts = (
      JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    const script = scripts["guide:screenshots"] ?? "";
    expect(script).toContain("WEFT_GUIDE_SCREENSHOTS=1");
    const { files } = takenByTests();
    expect(files.size).toBeGreaterThan(0);
    for (const f of files) expect(script.split(" "), `guide:screenshots runs ${f}`).toContain(f);
  });

  it("has every image taken by an e2e test and linked by the guide", () => {
    const taken = takenByTests().names;
    const linked = new Set(links.map((l) => resolve(dirname(l.from), l.target)));
    const files = existsSync(imagesDir) ? readdirSync(imagesDir) : [];
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      expect(f, "only PNG screenshots").toMatch(/^[a-z0-9-]+\.png$/);
      expect(taken, `${f} is taken by an e2e test`).toContain(f.slice(0, -".png".length));
      expect(linked, `${f} is linked by the guide`).toContain(join(imagesDir, f));
    }
  });
});
