/**
 * Renders the app icon (renderer/icon.svg) to build/icon.png at 1024×1024 with Debian's
 * Chromium; electron-builder derives the Linux, macOS (.icns) and Windows (.ico) icons from
 * it. Run after changing the SVG: `npx tsx build/makeIcon.ts`.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../test/e2e/support/browser.ts";

const svg = readFileSync(new URL("../renderer/icon.svg", import.meta.url), "utf8");
const out = fileURLToPath(new URL("./icon.png", import.meta.url));
const size = 1024;

const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  const body = svg.replace("<svg ", `<svg width="${size}" height="${size}" `);
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${body}</body></html>`,
  );
  await page.locator("svg").screenshot({ path: out, omitBackground: true });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
