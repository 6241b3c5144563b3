/**
 * The command model bundled for the browser (esbuild, platform "browser": a
 * `node:*` import does not resolve), with one entry, `weftCommand.run(input)`,
 * that builds, signs, parses and verifies a command and computes the shared
 * vectors' request keys and signatures over the model's @noble default; and
 * the same computation in Node over the node's node:crypto model, to compare.
 * Used by test/unit/commandBrowser.test.ts (a context without Node's globals)
 * and test/e2e/commandModel.e2e.ts (Chromium).
 */
import { build } from "esbuild";
import { cmdOf } from "../../src-node/command/buildCommand.ts";
import { parseJsonExact, stringifyJson } from "../../src-node/command/exactJson.ts";
import { parseCommandPayload } from "../../src-node/command/parseCommandPayload.ts";
import { hexEncode } from "../../src-node/encoding/hex.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { loadVectors } from "./vectors.ts";

export type RequestKeyCase = {
  name: string;
  cmd: string;
  requestKey: string;
  requestKeyHex: string;
};
export type Ed25519Case = {
  name: string;
  secretKeyHex?: string;
  publicKeyHex: string;
  messageHex: string;
  signatureHex: string;
  valid: boolean;
};

export const keyCases = loadVectors<RequestKeyCase>("request-keys.json").cases;
export const sigCases = loadVectors<Ed25519Case>("ed25519.json").cases;

/** What `run` takes: the vectors, a payload with exact numbers (`PUB` = the signer), JSON texts. */
export const commandRunInput = {
  secret: sigCases.find((c) => c.secretKeyHex !== undefined)?.secretKeyHex ?? "",
  payloadJson: `{"payload":{"exec":{"code":"(coin.transfer \\"a\\" \\"b\\" 1.0)","data":{"amount":1.0,"big":123456789012345678901}}},"meta":{"chainId":"0","sender":"a","gasLimit":600,"gasPrice":"0.00000001","ttl":600,"creationTime":1700000000},"signers":[{"pubKey":"PUB","clist":[{"name":"coin.TRANSFER","args":["a","b",1.0]}]}],"networkId":"development","nonce":"n\\u0001é"}`,
  cmds: keyCases.map((c) => c.cmd),
  sigCases,
  jsonSamples: [
    '{"a":1.0,"b":[1e-8,-0,123456789012345678901],"c":"\\u0008\\f\\n\\"\\\\","__proto__":{"x":null}}',
    '[true,false,null,"\\ud800",{"":{}}]',
  ],
};

export type CommandRunResult = {
  requestKeys: [string, string][];
  signatures: { verdict: boolean; signed: string | null }[];
  command: { cmd: string; hash: string; sigs: unknown[]; again: string };
  json: string[];
};

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

/** The bundle (an IIFE defining `weftCommand`) and the files it holds, relative to the repository. */
export async function bundleCommandModel(): Promise<{ code: string; inputs: string[] }> {
  const repo = new URL("../..", import.meta.url).pathname;
  const out = await build({
    stdin: { contents: entry, resolveDir: repo, sourcefile: "entry.js", loader: "js" },
    absWorkingDir: repo,
    bundle: true,
    platform: "browser",
    format: "iife",
    globalName: "weftCommand",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  return { code: out.outputFiles[0]?.text ?? "", inputs: Object.keys(out.metafile.inputs) };
}

/** What `run` gives, computed in Node with the node's model (node:crypto). */
export function nodeCommandRun(): CommandRunResult {
  const input = commandRunInput;
  const m = nodeCommands;
  const pub = m.publicKeyOf(input.secret);
  const payload = parseCommandPayload(input.payloadJson.replace("PUB", pub));
  const unsigned = m.buildCommand(payload);
  const signed = m.signCommand(unsigned, payload.signers, [
    { publicKey: pub, secretKey: input.secret },
  ]);
  const parsed = m.parseCommand(JSON.parse(JSON.stringify(signed)));
  m.verifyCommandSignatures(parsed);
  return {
    requestKeys: input.cmds.map((c) => [m.requestKeyOf(c), hexEncode(m.requestKeyBytesOf(c))]),
    signatures: input.sigCases.map((c) => {
      const message = new Uint8Array(Buffer.from(c.messageHex, "hex"));
      return {
        verdict: m.crypto.verify(message, c.signatureHex, c.publicKeyHex),
        signed: c.secretKeyHex === undefined ? null : m.crypto.sign(message, c.secretKeyHex),
      };
    }),
    command: {
      cmd: signed.cmd,
      hash: signed.hash,
      sigs: [...signed.sigs],
      again: cmdOf(parsed.payload),
    },
    json: input.jsonSamples.map((t) => stringifyJson(parseJsonExact(t) ?? null)),
  };
}

/** Checks a run's result against the vectors themselves (not only against the node). */
export function vectorMismatches(r: CommandRunResult): string[] {
  const out: string[] = [];
  keyCases.forEach((c, i) => {
    const [key, hex] = r.requestKeys[i] ?? [];
    if (key !== c.requestKey || hex !== c.requestKeyHex) out.push(`request key: ${c.name}`);
  });
  sigCases.forEach((c, i) => {
    const s = r.signatures[i];
    if (s?.verdict !== c.valid) out.push(`verdict: ${c.name}`);
    if (c.secretKeyHex !== undefined && c.valid && s?.signed !== c.signatureHex) {
      out.push(`signature: ${c.name}`);
    }
  });
  return out;
}
