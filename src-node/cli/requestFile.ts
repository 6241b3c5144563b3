/**
 * Request files (YAML) for `weft -a` and `weft -u`: an exec request (`code`
 * or `codeFile`, `data` or `dataFile`) or a continuation (`contractTxHash`,
 * also read as `pactId` or `pactTxHash`, `step`, `rollback`, `proof`, `data`),
 * with `nonce`, `networkId`, `publicMeta` and the signers. File paths resolve
 * relative to the request file. Unknown keys are errors: a misspelt
 * `publicMeta` must not silently become defaults. Formats and defaults are in
 * docs/cli.md.
 * @module
 */
import { dirname, resolve } from "node:path";
import type { CommandPayload, PayloadMessage } from "../command/commandTypes.ts";
import type { JsonObject } from "../command/exactJson.ts";
import type { SigningKey } from "../command/signCommand.ts";
import { CliError, cliError } from "./errors.ts";
import {
  checkKeys,
  isMap,
  member,
  missing,
  readBool,
  readInt,
  readMap,
  readText,
  type YamlMap,
} from "./fileFields.ts";
import { readTextFile } from "./readFiles.ts";
import { readPublicMeta } from "./requestMeta.ts";
import { readKeyPairs, readSigners } from "./requestSigners.ts";
import { parseYamlText, type YamlValue } from "./yamlValue.ts";

/** `sign`: `weft -a` (keyPairs, signs); `unsigned`: `weft -u` (signers, no secrets). */
export type RequestMode = "sign" | "unsigned";

/** A request file read: the command payload and, for `sign`, the keys to sign with. */
export type RequestFile = {
  readonly payload: CommandPayload;
  readonly keys: readonly SigningKey[];
};

const COMMON = ["type", "data", "dataFile", "nonce", "networkId", "publicMeta"];
const EXEC = ["code", "codeFile"];
const CONT = ["contractTxHash", "pactId", "pactTxHash", "step", "rollback", "proof"];

function keyHints(mode: RequestMode, type: "exec" | "cont"): Record<string, string> {
  const hints: Record<string, string> = {};
  for (const k of CONT) hints[k] = `${k} belongs to a continuation request (type: cont)`;
  for (const k of EXEC)
    hints[k] = `${k} belongs to an exec request (type: exec), not type: ${type}`;
  if (mode === "sign") {
    hints.signers =
      "signers (public keys without secrets) make an unsigned transaction: use weft -u, or list keyPairs to sign with -a";
  } else {
    hints.keyPairs =
      "weft -u makes an unsigned transaction: list public keys under signers (public, caps), or sign with weft -a";
  }
  return hints;
}

/** Reads `field` as text from `map`, or from the file named by `fileField`; exactly one. */
function readInlineOrFile(
  map: YamlMap,
  field: string,
  fileField: string,
  file: string,
  dir: string,
): { text?: string; path?: string; value?: YamlValue } | undefined {
  const inline = member(map, field);
  const named = member(map, fileField);
  if (inline !== undefined && named !== undefined) {
    throw cliError(
      "CLI_BAD_FIELD",
      file,
      fileField,
      `give either ${field} or ${fileField}, not both`,
    );
  }
  if (named !== undefined) {
    const path = resolve(dir, readText(named, file, fileField));
    return { text: readTextFile(path, file, fileField), path };
  }
  return inline === undefined ? undefined : { value: inline };
}

function readData(map: YamlMap, file: string, dir: string): JsonObject {
  const source = readInlineOrFile(map, "data", "dataFile", file, dir);
  if (source === undefined) return {};
  let value: YamlValue | undefined = source.value;
  if (source.text !== undefined) {
    try {
      value = parseYamlText(source.text, source.path ?? "dataFile", "JSON");
    } catch (e) {
      if (e instanceof CliError) {
        throw cliError("CLI_BAD_FIELD", file, "dataFile", e.message, e);
      }
      throw e;
    }
  }
  if (value === null || value === undefined) return {};
  const field = source.text === undefined ? "data" : "dataFile";
  if (!isMap(value)) throw cliError("CLI_BAD_FIELD", file, field, "data must be a JSON object");
  return value;
}

function readCode(map: YamlMap, file: string, dir: string): string {
  const source = readInlineOrFile(map, "code", "codeFile", file, dir);
  if (source === undefined) throw missing(file, "code", "missing: give code or codeFile");
  return source.text ?? readText(source.value, file, "code");
}

function readPactId(map: YamlMap, file: string): string {
  const names = ["contractTxHash", "pactId", "pactTxHash"].filter(
    (k) => member(map, k) !== undefined,
  );
  const [name, ...more] = names;
  if (name === undefined) {
    throw missing(
      file,
      "contractTxHash",
      "missing: the request key of the transaction to continue",
    );
  }
  if (more.length > 0) {
    throw cliError("CLI_BAD_FIELD", file, more[0] ?? name, `give only one of ${names.join(", ")}`);
  }
  return readText(member(map, name), file, name);
}

/** A proof as /spv returns it may still carry its JSON quotes; they are not part of it. */
function readProof(v: YamlValue | undefined, file: string): string | null {
  if (v === undefined) return null;
  const text = readText(v, file, "proof").trim();
  return text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
}

function readPayload(
  map: YamlMap,
  type: "exec" | "cont",
  file: string,
  dir: string,
): PayloadMessage {
  const data = readData(map, file, dir);
  if (type === "exec") return { exec: { code: readCode(map, file, dir), data } };
  const step = readInt(member(map, "step"), file, "step");
  if (step < 0) throw cliError("CLI_BAD_FIELD", file, "step", "expected an integer >= 0");
  return {
    cont: {
      pactId: readPactId(map, file),
      step,
      rollback: readBool(member(map, "rollback"), file, "rollback"),
      data,
      proof: readProof(member(map, "proof"), file),
    },
  };
}

/** A request file's text when it did not come from a file (`<stdin>`); paths then resolve from the working directory. */
export type RequestSource = { readonly name: string; readonly text: string };

/**
 * Reads a request file.
 * @param given the path as the user gave it (named in errors).
 * @param now the clock for the nonce and creation-time defaults.
 * @param source the text, when it was read elsewhere (standard input).
 * @throws {CliError} naming the file and field for every problem.
 */
export function readRequestFile(
  given: string,
  mode: RequestMode,
  now: Date,
  source?: RequestSource,
): RequestFile {
  const path = source?.name ?? given;
  const text = source === undefined ? readTextFile(path, path) : source.text;
  const map = readMap(parseYamlText(text, path), path, "");
  const typeValue = member(map, "type");
  const type = typeValue === undefined ? "exec" : readText(typeValue, path, "type");
  if (type !== "exec" && type !== "cont") {
    throw cliError("CLI_BAD_FIELD", path, "type", `expected exec or cont, got '${type}'`);
  }
  const signerKey = mode === "sign" ? "keyPairs" : "signers";
  checkKeys(
    map,
    [...COMMON, signerKey, ...(type === "exec" ? EXEC : CONT)],
    path,
    "",
    keyHints(mode, type),
  );
  const dir = source === undefined ? dirname(resolve(given)) : process.cwd();
  const { signers, keys } =
    mode === "sign"
      ? readKeyPairs(member(map, "keyPairs"), path)
      : { signers: readSigners(member(map, "signers"), path), keys: [] };
  const nonce = member(map, "nonce");
  const networkId = member(map, "networkId");
  return {
    payload: {
      payload: readPayload(map, type, path, dir),
      meta: readPublicMeta(member(map, "publicMeta"), path, now),
      signers,
      networkId: networkId === undefined ? null : readText(networkId, path, "networkId"),
      nonce: nonce === undefined ? now.toISOString() : readText(nonce, path, "nonce"),
    },
    keys,
  };
}
