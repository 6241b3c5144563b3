/**
 * The user guide's screenshots, taken by the e2e tests while they run so the guide shows the
 * app as it is: the visible part of the page at one fixed viewport, in the dark theme,
 * whatever the test's page uses otherwise. They go to docs/guide/images/<name>.png (committed)
 * only when `WEFT_GUIDE_SCREENSHOTS=1` (`npm run guide:screenshots`): a picture holds a random
 * recovery phrase and live heights, so an ordinary e2e run would change the committed files
 * every time; it writes them to test/e2e/artifacts/guide/ (gitignored) instead, to look at.
 * `test/unit/userGuideImages.test.ts` checks that every image the guide links exists, has
 * this size and stays small, and that `guide:screenshots` runs every file that takes one.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Locator, Page } from "playwright-core";

/** The viewport of every guide screenshot (and of the pages `setUpRealNodePage` opens). */
export const GUIDE_VIEWPORT = { width: 1280, height: 720 } as const;

export const guideImagesDir = fileURLToPath(
  new URL("../../../docs/guide/images/", import.meta.url),
);

/** Where an ordinary e2e run puts them (beside browser.ts's artifacts, gitignored). */
const artifactsGuideDir = fileURLToPath(new URL("../artifacts/guide/", import.meta.url));

/** Where this run writes the screenshots: the guide's folder only when asked to. */
export function guideScreenshotsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.WEFT_GUIDE_SCREENSHOTS === "1" ? guideImagesDir : artifactsGuideDir;
}

/** Names are the files' names: lower case words joined by `-`. */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Saves what `page` shows as <name>.png in {@link guideScreenshotsDir} (GUIDE_VIEWPORT, dark theme), then
 * gives the page back its viewport and colour scheme; returns the file's path. `top`: scroll
 * to the top of the page first (a test's last click may have scrolled it down). `scrollTo`:
 * scroll so that this part of the page starts at the top of the picture (the part a caption
 * describes, further down a long page).
 */
export async function saveGuideScreenshot(
  page: Page,
  name: string,
  options: { readonly top?: boolean; readonly scrollTo?: Locator } = {},
): Promise<string> {
  if (!NAME.test(name)) throw new Error(`guide screenshot name ${JSON.stringify(name)}`);
  const dir = guideScreenshotsDir();
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  const viewport = page.viewportSize();
  const resize =
    viewport === null ||
    viewport.width !== GUIDE_VIEWPORT.width ||
    viewport.height !== GUIDE_VIEWPORT.height;
  if (resize) await page.setViewportSize(GUIDE_VIEWPORT);
  await page.emulateMedia({ colorScheme: "dark" });
  if (options.top === true) await page.evaluate("window.scrollTo(0, 0)");
  if (options.scrollTo !== undefined) {
    // The window scrolls by where the part is now (its box is relative to the viewport).
    const box = await options.scrollTo.boundingBox();
    if (box !== null) await page.evaluate(`window.scrollBy(0, ${Math.round(box.y) - 16})`);
  }
  try {
    // The caret blinks and animations move: neither belongs in a picture compared by eye.
    await page.screenshot({ path, animations: "disabled", caret: "hide", scale: "css" });
  } finally {
    await page.emulateMedia({ colorScheme: null });
    if (resize && viewport !== null) await page.setViewportSize(viewport);
  }
  return path;
}
