/**
 * The command model in a browser-like environment: `src-node/command/` is
 * bundled for the browser (test/support/commandBundle.ts) and run in a fresh
 * JavaScript context that has the Web platform's globals the model may use
 * (TextEncoder, TextDecoder, Web Crypto) and none of Node's (no Buffer,
 * process or require). There, over its @noble default, it must give the
 * vectors' request keys, signatures and verdicts, and the same commands and
 * exact JSON as the node's node:crypto model. (test/e2e/commandModel.e2e.ts
 * runs the same bundle in Chromium.)
 */
import { createContext, runInContext } from "node:vm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  bundleCommandModel,
  type CommandRunResult,
  commandRunInput,
  nodeCommandRun,
  vectorMismatches,
} from "../support/commandBundle.ts";

let browserResult: CommandRunResult;
let contextGlobals: unknown;
let bundle: { code: string; inputs: string[] };

beforeAll(async () => {
  bundle = await bundleCommandModel();
  // Only what a browser page has that the model may touch; none of Node's globals.
  const context = createContext({ TextEncoder, TextDecoder, crypto: globalThis.crypto, console });
  runInContext(bundle.code, context);
  contextGlobals = runInContext("[typeof Buffer, typeof process, typeof require]", context);
  // Plain data across the realm boundary.
  const text = runInContext(
    `JSON.stringify(weftCommand.run(${JSON.stringify(commandRunInput)}))`,
    context,
  );
  browserResult = JSON.parse(text as string) as CommandRunResult;
}, 60_000);

describe("[command] the model bundled for the browser", () => {
  it("bundles from the command area and pure packages only", () => {
    expect(bundle.inputs.length).toBeGreaterThan(5);
    const outside = bundle.inputs.filter(
      (p) =>
        !p.startsWith("src-node/command/") &&
        !p.startsWith("src-node/errors/") &&
        !/^node_modules\/@(noble|scure)\//.test(p) &&
        p !== "entry.js",
    );
    expect(outside).toEqual([]);
  });

  it("runs without Node's globals, and asks for none", () => {
    expect(JSON.stringify(contextGlobals)).toBe('["undefined","undefined","undefined"]');
    // (`process(view, offset)` is a method of @noble's hashes, not Node's global.)
    expect(bundle.code).not.toMatch(/(?<![.\w])(?:Buffer|__require)\b|(?<![.\w])process\s*\./);
  });

  it("gives the vectors' request keys, signatures and verdicts", () => {
    expect(vectorMismatches(browserResult)).toEqual([]);
  });

  it("gives what the node's model gives: keys, signatures, the built command, exact JSON", () => {
    const node = nodeCommandRun();
    expect(browserResult).toEqual(node);
    // Exact numbers survive: the amount stays 1.0, the big integer keeps its digits.
    expect(node.command.cmd).toContain('"data":{"amount":1.0,"big":123456789012345678901}');
    expect(node.command.cmd).toContain('"args":["a","b",1.0]');
    expect(node.command.again).toBe(node.command.cmd);
    expect(node.json[0]).toBe(
      '{"a":1.0,"b":[1e-8,-0,123456789012345678901],"c":"\\u0008\\u000c\\n\\"\\\\","__proto__":{"x":null}}',
    );
  });
});
