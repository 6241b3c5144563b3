/**
 * Detached (unsigned or partly signed) transactions, the files `weft -u`,
 * `add-sig` and `combine-sigs` pass around: `hash`, `sigs` (a map from signer
 * public key to a hex signature or null) and `cmd`. The condensed cold-wallet
 * form drops `cmd`. Reading also accepts `sigs` as a list of signature
 * objects (`{pubKey, sig}`, with `scheme`/`addr` as the tool prints them, or a
 * command's bare `{sig}` belonging to the signer at its index), so the tool's
 * own `-l` output and commands from other tools can be read back.
 * Every signature present is verified when a file is read, and `hash` is
 * checked against `cmd` when `cmd` is there.
 * @module
 */
import { stringify } from "yaml";
import type { Signer, UnsignedCommand } from "../command/commandTypes.ts";
import { parseCommandPayload } from "../command/parseCommandPayload.ts";
import { isRequestKeyOf } from "../command/requestKeyCheck.ts";
import { signerAddressError } from "../command/verifySignatures.ts";
import { verifyBytes } from "../crypto/ed25519.ts";
import { decodeHash, isHashText } from "../encoding/base64url.ts";
import { CommandError } from "../exec/errors.ts";
import { nodeCommandCrypto, nodeCommands } from "../exec/nodeCommands.ts";
import { cliError } from "./errors.ts";
import {
  checkKeys,
  childField,
  isMap,
  member,
  missing,
  readHexText,
  readMap,
  readText,
} from "./fileFields.ts";
import type { YamlValue } from "./yamlValue.ts";

/** One signer's slot: its public key (lower-case hex) and signature (hex) or null. */
export type SigEntry = { readonly pubKey: string; readonly sig: string | null };

export type DetachedTx = {
  readonly hash: string;
  /** In signer order when `cmd` is known; otherwise in file order. */
  readonly sigs: readonly SigEntry[];
  readonly cmd?: string;
  /** The signers inside `cmd` (set when `cmd` is known). */
  readonly signers?: readonly Signer[];
};

/** The detached form of a command that nobody has signed yet. */
export function unsignedTx(command: UnsignedCommand, signers: readonly Signer[]): DetachedTx {
  return {
    hash: command.hash,
    cmd: command.cmd,
    signers,
    sigs: uniqueKeys(signers).map((pubKey) => ({ pubKey, sig: null })),
  };
}

function uniqueKeys(signers: readonly Signer[]): string[] {
  return [...new Set(signers.map((s) => s.pubKey.toLowerCase()))];
}

function readSig(v: YamlValue | undefined, file: string, field: string): string | null {
  return v === undefined ? null : readHexText(v, file, field, 64);
}

/**
 * @param signers the signers of cmd when the file has it: a list entry
 *   without `pubKey` (a command's `[{sig}]`) belongs to the signer at its index.
 */
function readSigEntries(
  v: YamlValue | undefined,
  file: string,
  signers: readonly Signer[] | undefined,
): SigEntry[] {
  if (v === undefined) throw missing(file, "sigs");
  const entries: SigEntry[] = [];
  if (isMap(v)) {
    for (const key of Object.keys(v)) {
      const field = `sigs.${key}`;
      const pubKey = readHexText(key, file, field, 32);
      entries.push({ pubKey, sig: readSig(member(v, key), file, field) });
    }
  } else if (Array.isArray(v)) {
    (v as readonly YamlValue[]).forEach((item, i) => {
      const at = childField("sigs", i);
      const entry = readMap(item, file, at);
      // scheme and addr, as signature objects print them, are the signer's in cmd.
      checkKeys(entry, ["pubKey", "sig", "scheme", "addr"], file, at);
      const given = member(entry, "pubKey");
      const positional = given === undefined ? signers?.[i]?.pubKey : undefined;
      if (given === undefined && signers !== undefined && positional === undefined) {
        throw cliError(
          "CLI_NO_MATCHING_SIGNER",
          file,
          at,
          `cmd has ${signers.length} signer(s); this signature has no pubKey and none at its place`,
        );
      }
      const pubKey = readHexText(given ?? positional, file, childField(at, "pubKey"), 32);
      entries.push({ pubKey, sig: readSig(member(entry, "sig"), file, childField(at, "sig")) });
    });
  } else {
    throw cliError(
      "CLI_BAD_FIELD",
      file,
      "sigs",
      "expected a map from public key to signature or null",
    );
  }
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.pubKey)) {
      throw cliError("CLI_BAD_FIELD", file, `sigs.${e.pubKey}`, "this public key is listed twice");
    }
    seen.add(e.pubKey);
  }
  return entries;
}

function signersOf(cmd: string, file: string): readonly Signer[] {
  let signers: readonly Signer[];
  try {
    signers = parseCommandPayload(cmd, "cmd").signers;
  } catch (e) {
    if (e instanceof CommandError) throw cliError("CLI_BAD_FIELD", file, e.field, e.message, e);
    throw e;
  }
  signers.forEach((s, i) => {
    const e = signerAddressError(s, i);
    if (e !== null) throw cliError("CLI_ADDRESS_MISMATCH", file, e.field, e.message, e);
  });
  return signers;
}

/** Puts the entries in signer order; every key must be a signer's. */
function orderBySigners(entries: readonly SigEntry[], signers: readonly Signer[], file: string) {
  const keys = uniqueKeys(signers);
  for (const e of entries) {
    if (!keys.includes(e.pubKey)) {
      throw cliError(
        "CLI_NO_MATCHING_SIGNER",
        file,
        `sigs.${e.pubKey}`,
        "this public key is not a signer of cmd",
      );
    }
  }
  return keys.map((pubKey) => ({
    pubKey,
    sig: entries.find((e) => e.pubKey === pubKey)?.sig ?? null,
  }));
}

/** Throws CLI_BAD_SIGNATURE naming `sigs.<key>` for a signature that does not verify. */
export function checkSignatures(tx: DetachedTx, file: string): void {
  const message = decodeHash(tx.hash, "hash");
  for (const e of tx.sigs) {
    if (e.sig !== null && !verifyBytes(message, e.sig, e.pubKey)) {
      throw cliError(
        "CLI_BAD_SIGNATURE",
        file,
        `sigs.${e.pubKey}`,
        `this signature does not verify for hash ${tx.hash}`,
      );
    }
  }
}

/**
 * Reads and checks a detached transaction (`hash`, `sigs`, optional `cmd`).
 * @throws {CliError} CLI_HASH_MISMATCH when hash is not the request key of
 *   cmd; CLI_NO_MATCHING_SIGNER for a key that is not a signer of cmd;
 *   CLI_BAD_SIGNATURE for a signature that does not verify; CLI_MISSING_FIELD,
 *   CLI_BAD_FIELD, CLI_UNKNOWN_KEY for the shape.
 */
export function readDetachedTx(value: YamlValue, file: string): DetachedTx {
  const map = readMap(value, file, "");
  checkKeys(map, ["hash", "sigs", "cmd"], file, "", {
    cmds: "this is already a final API request (every signature present), not a transaction to sign",
  });
  const hash = readText(member(map, "hash"), file, "hash");
  if (!isHashText(hash)) {
    throw cliError(
      "CLI_BAD_FIELD",
      file,
      "hash",
      "expected a request key (43 characters of base64url)",
    );
  }
  const cmdValue = member(map, "cmd");
  let tx: DetachedTx;
  if (cmdValue === undefined) {
    tx = { hash, sigs: readSigEntries(member(map, "sigs"), file, undefined) };
  } else {
    const cmd = readText(cmdValue, file, "cmd");
    // Weft's Blake2s-256 key, or the reference's Blake2b-256 one (files made by its tools).
    if (!isRequestKeyOf(nodeCommandCrypto, hash, cmd)) {
      throw cliError(
        "CLI_HASH_MISMATCH",
        file,
        "hash",
        `does not match cmd (the request key of cmd is ${nodeCommands.requestKeyOf(cmd)})`,
      );
    }
    const signers = signersOf(cmd, file);
    const entries = readSigEntries(member(map, "sigs"), file, signers);
    tx = { hash, cmd, signers, sigs: orderBySigners(entries, signers, file) };
  }
  checkSignatures(tx, file);
  return tx;
}

/** True when `cmd` is known and every signer has signed. */
export function isComplete(tx: DetachedTx): boolean {
  return tx.cmd !== undefined && tx.sigs.every((e) => e.sig !== null);
}

/**
 * The YAML of a detached transaction: `hash`, `sigs`, then `cmd` unless
 * `condensed` (or unknown).
 */
export function detachedYaml(tx: DetachedTx, condensed: boolean): string {
  const sigs: Record<string, string | null> = {};
  for (const e of tx.sigs) sigs[e.pubKey] = e.sig;
  const doc: Record<string, unknown> = { hash: tx.hash, sigs };
  if (!condensed && tx.cmd !== undefined) doc.cmd = tx.cmd;
  return stringify(doc, { lineWidth: 0 });
}
