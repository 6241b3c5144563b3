/**
 * The command model in a browser-like environment: `src-node/command/` is
 * bundled for the browser (esbuild, platform "browser": a `node:*` import
 * does not resolve) and run in a fresh JavaScript context that has the Web
 * platform's globals the model may use (TextEncoder, TextDecoder, Web
 * Crypto) and none of Node's (no Buffer, process or require). There, over
 * its @noble default, it must give the same request keys, signatures,
 * verdicts, parsed commands and exact JSON as the node's node:crypto model.
 */
import { createContext, runInContext } from "node:vm";
import { build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import type { CommandPayload } from "../../src-node/command/commandTypes.ts";
import { parseJsonExact, stringifyJson } from "../../src-node/command/exactJson.ts";
import { hexEncode } from "../../src-node/encoding/hex.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { loadVectors } from "../support/vectors.ts";

type RequestKeyCase = { name: string; cmd: string; requestKey: string; requestKeyHex: string };
type Ed25519Case = {
  name: string;
  secretKeyHex?: string;
  publicKeyHex: string;
  messageHex: string;
  signatureHex: string;
  valid: boolean;
};

const repo = new URL("../..", import.meta.url).pathname;
const keys = loadVectors<RequestKeyCase>("request-keys.json").cases;
const sigs = loadVectors<Ed25519Case>("ed25519.json").cases;
const secret = sigs.find((c) => c.secretKeyHex !== undefined)?.secretKeyHex ?? "";

/** A request file's payload, with exact numbers written as JSON text in `cmd`. */
const payloadJson = `{"payload":{"exec":{"code":"(coin.transfer \\"a\\" \\"b\\" 1.0)","data":{"amount":1.0,"big":123456789012345678901}}},"meta":{"chainId":"0","sender":"a","gasLimit":600,"gasPrice":"0.00000001","ttl":600,"creationTime":1700000000},"signers":[{"pubKey":"PUB","clist":[{"name":"coin.TRANSFER","args":["a","b",1.0]}]}],"networkId":"development","nonce":"n\\u0001é"}`;
const jsonSamples = [
  '{"a":1.0,"b":[1e-8,-0,123456789012345678901],"c":"\\u0008\\f\\n\\"\\\\","__proto__":{"x":null}}',
  '[true,false,null,"\\ud800",{"":{}}]',
];

/** What the entry computes, in the browser context and (for comparison) in Node. */
const entry = `
import { commandModel } from "./src-node/command/commandModel.ts";
import { cmdOf } from "./src-node/command/buildCommand.ts";
import { parseCommandPayload } from "./src-node/command/parseCommandPayload.ts";
import { parseJsonExact, stringifyJson } from "./src-node/command/exactJson.ts";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";

export function run(input) {
  const m = commandModel;
  const pub = m.publicKeyOf(input.secret);
  const payload = parseCommandPayload(input.payloadJson.replace("PUB", pub));
  const unsigned = m.buildCommand(payload);
  const signed = m.signCommand(unsigned, payload.signers, [{ publicKey: pub, secretKey: input.secret }]);
  const parsed = m.parseCommand(JSON.parse(JSON.stringify(signed)));
  m.verifyCommandSignatures(parsed);
  return {
    requestKeys: input.cmds.map((c) => [m.requestKeyOf(c), bytesToHex(m.requestKeyBytesOf(c))]),
    signatures: input.sigCases.map((c) => {
      const message = hexToBytes(c.messageHex);
      return {
        verdict: m.crypto.verify(message, c.signatureHex, c.publicKeyHex),
        signed: c.secretKeyHex === undefined ? null : m.crypto.sign(message, c.secretKeyHex),
      };
    }),
    command: { cmd: signed.cmd, hash: signed.hash, sigs: signed.sigs, again: cmdOf(parsed.payload) },
    json: input.jsonSamples.map((t) => stringifyJson(parseJsonExact(t))),
  };
}
`;

type RunResult = {
  requestKeys: [string, string][];
  signatures: { verdict: boolean; signed: string | null }[];
  command: { cmd: string; hash: string; sigs: unknown[]; again: string };
  json: string[];
};

let browserResult: RunResult;
let contextGlobals: unknown;
let bundleText = "";
let bundledInputs: string[] = [];

beforeAll(async () => {
  const out = await build({
    stdin: { contents: entry, resolveDir: repo, sourcefile: "entry.js", loader: "js" },
    bundle: true,
    platform: "browser",
    format: "iife",
    globalName: "weftCommand",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  bundledInputs = Object.keys(out.metafile.inputs);
  const code = out.outputFiles[0]?.text ?? "";
  bundleText = code;
  // Only what a browser page has that the model may touch; none of Node's globals.
  const context = createContext({
    TextEncoder,
    TextDecoder,
    crypto: globalThis.crypto,
    console,
  });
  runInContext(code, context);
  contextGlobals = runInContext("[typeof Buffer, typeof process, typeof require]", context);
  const input = {
    secret,
    payloadJson,
    cmds: keys.map((c) => c.cmd),
    sigCases: sigs,
    jsonSamples,
  };
  // Plain data across the realm boundary.
  const text = runInContext(`JSON.stringify(weftCommand.run(${JSON.stringify(input)}))`, context);
  browserResult = JSON.parse(text as string) as RunResult;
}, 60_000);

describe("[command] the model bundled for the browser", () => {
  it("bundles from the command area and pure packages only", () => {
    expect(bundledInputs.length).toBeGreaterThan(5);
    const outside = bundledInputs.filter(
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
    expect(bundleText).not.toMatch(/(?<![.\w])(?:Buffer|__require)\b|(?<![.\w])process\s*\./);
  });

  it("gives the vectors' request keys, as the node does", () => {
    expect(browserResult.requestKeys).toEqual(
      keys.map((c) => [c.requestKey, c.requestKeyHex] as [string, string]),
    );
    expect(browserResult.requestKeys).toEqual(
      keys.map((c) => [
        nodeCommands.requestKeyOf(c.cmd),
        hexEncode(nodeCommands.requestKeyBytesOf(c.cmd)),
      ]),
    );
  });

  it("gives the vectors' signatures and verdicts, as the node does", () => {
    expect(browserResult.signatures).toEqual(
      sigs.map((c) => {
        const message = new Uint8Array(Buffer.from(c.messageHex, "hex"));
        return {
          verdict: nodeCommands.crypto.verify(message, c.signatureHex, c.publicKeyHex),
          signed:
            c.secretKeyHex === undefined ? null : nodeCommands.crypto.sign(message, c.secretKeyHex),
        };
      }),
    );
    sigs.forEach((c, i) => {
      expect(browserResult.signatures[i]?.verdict, c.name).toBe(c.valid);
      if (c.secretKeyHex !== undefined && c.valid) {
        expect(browserResult.signatures[i]?.signed, c.name).toBe(c.signatureHex);
      }
    });
  });

  it("builds, signs and parses a command to the bytes the node builds", () => {
    const pub = nodeCommands.publicKeyOf(secret);
    const payload = nodeCommands.parseCommand({
      cmd: payloadJson.replace("PUB", pub),
      hash: nodeCommands.requestKeyOf(payloadJson.replace("PUB", pub)),
      sigs: [{ sig: "" }],
    }).payload as CommandPayload;
    const unsigned = nodeCommands.buildCommand(payload);
    const signed = nodeCommands.signCommand(unsigned, payload.signers, [
      { publicKey: pub, secretKey: secret },
    ]);
    expect(browserResult.command).toEqual({
      cmd: signed.cmd,
      hash: signed.hash,
      sigs: signed.sigs,
      again: signed.cmd,
    });
    // Exact numbers survive: the amount stays 1.0, the big integer keeps its digits.
    expect(signed.cmd).toContain('"data":{"amount":1.0,"big":123456789012345678901}');
    expect(signed.cmd).toContain('"args":["a","b",1.0]');
  });

  it("reads and writes exact JSON as the node does", () => {
    expect(browserResult.json).toEqual(
      jsonSamples.map((t) => stringifyJson(parseJsonExact(t) ?? null)),
    );
    expect(browserResult.json[0]).toBe(
      '{"a":1.0,"b":[1e-8,-0,123456789012345678901],"c":"\\u0008\\u000c\\n\\"\\\\","__proto__":{"x":null}}',
    );
  });
});
