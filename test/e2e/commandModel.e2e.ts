/**
 * The command model in Chromium: the browser bundle of `src-node/command/`
 * (test/support/commandBundle.ts) runs in a blank page and gives the shared
 * vectors' request keys, signatures and verdicts, and the same command bytes
 * and exact JSON as the node's node:crypto model.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bundleCommandModel,
  type CommandRunResult,
  commandRunInput,
  nodeCommandRun,
  vectorMismatches,
} from "../support/commandBundle.ts";
import { launchChromium } from "./support/browser.ts";

let browser: Browser;
let result: CommandRunResult;

beforeAll(async () => {
  const { code } = await bundleCommandModel();
  browser = await launchChromium();
  const page = await browser.newPage();
  await page.setContent("<!doctype html><title>command model</title>");
  await page.addScriptTag({ content: code });
  result = (await page.evaluate(
    (input) =>
      (
        globalThis as unknown as { weftCommand: { run(i: unknown): CommandRunResult } }
      ).weftCommand.run(input),
    commandRunInput,
  )) as CommandRunResult;
});

afterAll(async () => {
  await browser?.close();
});

describe("[e2e] the command model in Chromium", () => {
  it("gives the vectors' request keys, signatures and verdicts", () => {
    expect(vectorMismatches(result)).toEqual([]);
  });

  it("gives what the node's model gives", () => {
    expect(result).toEqual(nodeCommandRun());
  });
});
