/**
 * Launches Debian's Chromium for end-to-end tests through playwright-core (which never
 * downloads a browser), and saves screenshots under test/e2e/artifacts/.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

/** The Chromium binary: $WEFT_CHROMIUM, else Debian's /usr/bin/chromium. */
export function chromiumPath(): string {
  const fromEnv = process.env.WEFT_CHROMIUM;
  return fromEnv !== undefined && fromEnv !== "" ? fromEnv : "/usr/bin/chromium";
}

/** Flags for a quiet, offline, headless browser in a container. */
export const chromiumFlags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
] as const;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...chromiumFlags],
  });
}

/**
 * A page in a new context of its own at `viewport`, whose console errors and page errors go
 * to `onProblem` (the e2e set-ups collect them per test).
 */
export async function openWatchedPage(
  browser: Browser,
  viewport: { readonly width: number; readonly height: number },
  onProblem: (text: string, kind: "console" | "page") => void,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on("console", (m) => {
    if (m.type() === "error") onProblem(m.text(), "console");
  });
  page.on("pageerror", (e) => onProblem(e.message, "page"));
  return { context, page };
}

export const artifactsDir = fileURLToPath(new URL("../artifacts/", import.meta.url));

/** Saves a full-page screenshot as test/e2e/artifacts/<name>.png; returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(artifactsDir, { recursive: true });
  const path = join(artifactsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
