/**
 * Transactions prepared elsewhere for this wallet to sign, read strictly and written back in
 * the form they came in: the `weft -u` detached form (`{hash, sigs: {pubKey: sig | null}, cmd}`)
 * as YAML or JSON, a command `{cmd, hash, sigs: [{sig} | null]}` with signatures missing, and
 * Kadena's SigData / CommandSigData (`{cmd, hash?, sigs: [{pubKey, sig | null}]}`). `cmd` is
 * parsed by the browser-safe command model (`parseCommand`: a `hash` that is not the request key
 * of `cmd` is refused with the key it should be); every signature present must verify.
 * The condensed form (no `cmd`) is refused: what it signs could not be shown.
 * @module
 */
import { parseDocument, stringify } from "yaml";
import { commandModel } from "../../../../../src-node/command/commandModel.ts";
import type { Command, CommandPayload } from "../../../../../src-node/command/commandTypes.ts";
import { CommandError } from "../../../../../src-node/command/errors.ts";
import { requestKeyBytes } from "../../../../../src-node/command/requestKeyBytes.ts";
import { checkSignerAddresses } from "../../../../../src-node/command/verifySignatures.ts";
import type { Result } from "../../../../../src-node/errors/result.ts";

/** The form a transaction came in, and is written back in. */
export type TxForm = "weft-yaml" | "weft-json" | "command" | "sigdata";

export type SignRequest = {
  readonly form: TxForm;
  readonly cmd: string;
  readonly hash: string;
  readonly payload: CommandPayload;
  /** One per signer of `cmd` (same order): its signature (128 hex) or null. */
  readonly sigs: readonly (string | null)[];
  /** SigData only: whether the input carried `hash` (written back only then). */
  readonly withHash: boolean;
};

export type ParseResult = Result<SignRequest>;

const HEX64 = /^[0-9a-fA-F]{64}$/;
const SIG_HEX = /^[0-9a-fA-F]{128}$/;

class Refusal extends Error {}
function refuse(problem: string): never {
  throw new Refusal(problem);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** JSON when the text starts with `{`, else YAML (one document, errors refused). */
function readText(text: string): { value: unknown; json: boolean } {
  const trimmed = text.trim();
  if (trimmed === "") refuse("Paste a transaction or open a file holding one.");
  if (trimmed.startsWith("{")) {
    try {
      return { value: JSON.parse(trimmed), json: true };
    } catch (e) {
      return refuse(`Not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const doc = parseDocument(trimmed, { uniqueKeys: true });
  const first = doc.errors[0];
  if (first !== undefined) refuse(`Not valid YAML or JSON: ${first.message.split("\n")[0]}`);
  return { value: doc.toJS(), json: false };
}

function readSig(v: unknown, field: string): string | null {
  if (v === null || v === undefined || v === "") return null;
  if (typeof v !== "string" || !SIG_HEX.test(v)) {
    return refuse(`${field}: expected a signature (128 hex characters) or null`);
  }
  return v.toLowerCase();
}

function readPubKey(v: unknown, field: string): string {
  if (typeof v !== "string" || !HEX64.test(v)) {
    return refuse(`${field}: expected a public key (64 hex characters)`);
  }
  return v.toLowerCase();
}

function checkKeys(o: Record<string, unknown>, allowed: readonly string[], where: string) {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k))
      refuse(`${where}${k}: unknown field (expected ${allowed.join(", ")})`);
  }
}

/** Reads `cmd` and `hash` with the command model; a mismatch names the right key. */
function readCommand(cmd: unknown, hash: unknown): { hash: string; payload: CommandPayload } {
  if (typeof cmd !== "string") return refuse("cmd: expected the command's JSON text (a string)");
  const givenHash = hash === undefined ? commandModel.requestKeyOf(cmd) : hash;
  try {
    const parsed = commandModel.parseCommand({ cmd, hash: givenHash, sigs: [] });
    // A signer naming another key in addr would have this wallet's signature count for it.
    checkSignerAddresses(parsed.payload.signers);
    return { hash: parsed.hash, payload: parsed.payload };
  } catch (e) {
    if (e instanceof CommandError) {
      if (e.type.code === "CMD_ADDRESS_MISMATCH") return refuse(addressRefusal(e.type));
      const mismatch = e.code === "CMD_HASH_MISMATCH";
      return refuse(
        mismatch
          ? `hash does not match cmd: the request key of cmd is ${commandModel.requestKeyOf(cmd)} (${e.message})`
          : e.message,
      );
    }
    throw e;
  }
}

/** The refusal of a signer whose `addr` is another key, in words. */
function addressRefusal(t: { index: number; pubKey: string; addr: string; field: string }): string {
  return (
    `Refused: signer ${t.index + 1} signs with the key ${t.pubKey} but names the address ` +
    `${t.addr}, which is not that key. A signature would then be counted for ${t.addr}'s ` +
    "accounts, which it does not own: this wallet does not sign such a transaction, and nodes " +
    `refuse it. Ask whoever prepared it to remove the address or make it the key itself (${t.field}).`
  );
}

function parseValue(value: unknown, json: boolean): SignRequest {
  if (!isObject(value)) return refuse("Expected an object with cmd and sigs.");
  if ("cmds" in value) {
    refuse(
      "This is a final /send body (every signature present), not a transaction to sign: send it as it is.",
    );
  }
  if (!("cmd" in value)) {
    return refuse(
      "There is no cmd: this is the condensed form (hash and sigs only), so what it signs cannot be shown. Paste the full form with cmd.",
    );
  }
  checkKeys(value, ["cmd", "hash", "sigs"], "");
  const { hash, payload } = readCommand(value.cmd, value.hash);
  const keys = payload.signers.map((s) => s.pubKey.toLowerCase());
  const sigsValue = value.sigs;
  let form: TxForm;
  let sigs: (string | null)[];
  if (isObject(sigsValue)) {
    // The weft -u form: a map from public key to signature or null.
    form = json ? "weft-json" : "weft-yaml";
    if (value.hash === undefined) refuse("hash: missing (the weft -u form carries it)");
    const byKey = new Map<string, string | null>();
    for (const [k, v] of Object.entries(sigsValue)) {
      const pubKey = readPubKey(k, `sigs.${k}`);
      if (!keys.includes(pubKey)) refuse(`sigs.${k}: this public key is not a signer of cmd`);
      if (byKey.has(pubKey)) refuse(`sigs.${k}: this public key is listed twice`);
      byKey.set(pubKey, readSig(v, `sigs.${k}`));
    }
    sigs = keys.map((k) => byKey.get(k) ?? null);
  } else if (Array.isArray(sigsValue)) {
    const entries = sigsValue as unknown[];
    // SigData names each signer's key; a command's sigs are positional ({sig} or null).
    const withPubKeys =
      entries.length > 0 && entries.every((e) => isObject(e) && e.pubKey !== undefined);
    form =
      withPubKeys || (entries.length === 0 && value.hash === undefined) ? "sigdata" : "command";
    if (form === "command" && value.hash === undefined) {
      refuse("hash: missing (a command carries its hash; SigData entries carry pubKey)");
    }
    if (form === "command") {
      if (entries.length !== keys.length) {
        refuse(`sigs: cmd has ${keys.length} signer(s) but sigs has ${entries.length} entries`);
      }
      sigs = entries.map((e, i) => {
        if (e === null) return null;
        if (!isObject(e)) return refuse(`sigs[${i}]: expected {sig} or null`);
        checkKeys(e, ["sig", "pubKey", "scheme", "addr"], `sigs[${i}].`);
        if (e.pubKey !== undefined && readPubKey(e.pubKey, `sigs[${i}].pubKey`) !== keys[i]) {
          refuse(`sigs[${i}].pubKey: not the key of signer ${i} of cmd`);
        }
        return readSig(e.sig, `sigs[${i}].sig`);
      });
    } else {
      const byKey = new Map<string, string | null>();
      for (const [i, e] of entries.entries()) {
        if (!isObject(e)) refuse(`sigs[${i}]: expected {pubKey, sig}`);
        checkKeys(e, ["pubKey", "sig", "scheme", "addr"], `sigs[${i}].`);
        const pubKey = readPubKey(e.pubKey, `sigs[${i}].pubKey`);
        if (!keys.includes(pubKey)) refuse(`sigs[${i}].pubKey: not a signer of cmd`);
        if (byKey.has(pubKey)) refuse(`sigs[${i}].pubKey: listed twice`);
        byKey.set(pubKey, readSig(e.sig, `sigs[${i}].sig`));
      }
      sigs = keys.map((k) => byKey.get(k) ?? null);
    }
  } else {
    return refuse("sigs: expected a list of signatures or a map from public key to signature");
  }
  const request: SignRequest = {
    form,
    cmd: value.cmd as string,
    hash,
    payload,
    sigs,
    withHash: value.hash !== undefined,
  };
  // The given hash's bytes: a reference (Blake2b) request key is signed as it is.
  const message = requestKeyBytes(hash);
  sigs.forEach((sig, i) => {
    const key = keys[i];
    if (sig !== null && key !== undefined && !commandModel.crypto.verify(message, sig, key)) {
      refuse(`The signature of ${key} does not verify for this transaction.`);
    }
  });
  return request;
}

/** Reads a pasted or opened transaction; never throws for bad input. */
export function parseSignRequest(text: string): ParseResult {
  try {
    const { value, json } = readText(text);
    return { ok: true, value: parseValue(value, json) };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, error: e.message };
    throw e;
  }
}

/** The request with `signature` filled in for every signer slot of `pubKey`. */
export function withSignature(r: SignRequest, pubKey: string, signature: string): SignRequest {
  const key = pubKey.toLowerCase();
  return {
    ...r,
    sigs: r.sigs.map((s, i) =>
      r.payload.signers[i]?.pubKey.toLowerCase() === key ? signature.toLowerCase() : s,
    ),
  };
}

export const isComplete = (r: SignRequest) => r.sigs.every((s) => s !== null);

/** A key of this wallet: the vault's id of it and its public key (64 lower-case hex). */
export type HeldKey = { readonly keyId: string; readonly publicKey: string };

/** The wallet's keys that sign `r` and have not signed it yet. */
export function heldSigners<K extends HeldKey>(r: SignRequest, keys: readonly K[]): K[] {
  return keys.filter((k) =>
    r.payload.signers.some((s, i) => s.pubKey.toLowerCase() === k.publicKey && r.sigs[i] === null),
  );
}

/** `r` signed with each of `held` (the vault signs the request key, one key after another). */
export async function signWithHeld(
  r: SignRequest,
  held: readonly HeldKey[],
  sign: (keyId: string, requestKey: string) => Promise<string>,
): Promise<SignRequest> {
  let next = r;
  for (const k of held) next = withSignature(next, k.publicKey, await sign(k.keyId, next.hash));
  return next;
}

/** The command to send: every signature present, in signer order. */
export function commandOf(r: SignRequest): Command {
  return {
    cmd: r.cmd,
    hash: r.hash,
    sigs: r.sigs.map((sig, i) => {
      if (sig === null) throw new Error(`signer ${i} has not signed`);
      return { sig };
    }),
  };
}

/** The request written in the form it came in (unsigned slots as null). */
export function serializeSignRequest(r: SignRequest): string {
  const keys = r.payload.signers.map((s) => s.pubKey.toLowerCase());
  switch (r.form) {
    case "weft-yaml":
    case "weft-json": {
      const sigs: Record<string, string | null> = {};
      keys.forEach((k, i) => {
        sigs[k] = r.sigs[i] ?? null;
      });
      const doc = { hash: r.hash, sigs, cmd: r.cmd };
      return r.form === "weft-yaml"
        ? stringify(doc, { lineWidth: 0 })
        : `${JSON.stringify(doc, null, 2)}\n`;
    }
    case "command":
      return `${JSON.stringify({
        cmd: r.cmd,
        hash: r.hash,
        sigs: r.sigs.map((sig) => (sig === null ? null : { sig })),
      })}\n`;
    case "sigdata": {
      const sigs = [...new Set(keys)].map((pubKey) => ({
        pubKey,
        sig: r.sigs[keys.indexOf(pubKey)] ?? null,
      }));
      return `${JSON.stringify(r.withHash ? { cmd: r.cmd, hash: r.hash, sigs } : { cmd: r.cmd, sigs })}\n`;
    }
  }
}

/** The suggested file name of a saved request. */
export function fileNameOf(r: SignRequest): string {
  return `tx-${r.hash.slice(0, 8)}.${r.form === "weft-yaml" ? "yaml" : "json"}`;
}

/**
 * A command nobody has signed yet, as SigData naming its signers (`{cmd, hash, sigs: [{pubKey,
 * sig: null}]}`): what "Prepare for others to sign" hands out.
 */
export function unsignedSigData(cmd: string, hash: string, payload: CommandPayload): SignRequest {
  return {
    form: "sigdata",
    cmd,
    hash,
    payload,
    sigs: payload.signers.map(() => null),
    withHash: true,
  };
}
