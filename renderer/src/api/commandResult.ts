/**
 * Command results of the contract command endpoints (`/local`, `/poll`) as the UI reads
 * them, parsed from exact JSON (`src-node/command/exactJson.ts`: every number keeps its
 * text, so balances and amounts in `data` are never rounded through a double): request
 * key, gas, success data or the failure's message, and the block of a polled result.
 * @module
 */
import { isJsonObject, JsonNumber, type JsonValue } from "../../../src-node/command/exactJson.ts";
import { type Decoded, decode, reject } from "./decode.ts";

export type CommandOutcome =
  | { readonly ok: true; readonly data: JsonValue }
  | { readonly ok: false; readonly message: string; readonly type: string | null };

export type CommandResultView = {
  readonly reqKey: string;
  /** Gas used (or, for /local, needed). */
  readonly gas: number;
  readonly outcome: CommandOutcome;
  /** The block that holds the command (`/poll`); null for `/local`. */
  readonly blockHeight: number | null;
  readonly blockHash: string | null;
  /** The defpact state of a command that started or continued one (`continuation`), as sent. */
  readonly continuation: JsonValue | null;
};

/** `/local?preflight=true`: the result and the node's warnings. */
export type PreflightView = {
  readonly result: CommandResultView;
  readonly warnings: readonly string[];
};

function obj(x: JsonValue | undefined, path: string): { readonly [key: string]: JsonValue } {
  return isJsonObject(x) ? x : reject(path, "an object");
}

function str(x: JsonValue | undefined, path: string): string {
  return typeof x === "string" ? x : reject(path, "a string");
}

/** A JSON integer >= 0 (an exact number or a plain one). */
export function jsonNatural(x: JsonValue | undefined, path: string): number {
  const n = x instanceof JsonNumber ? Number(x.text) : x;
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0
    ? n
    : reject(path, "an integer >= 0");
}

function readResult(x: JsonValue | undefined, path: string): CommandResultView {
  const o = obj(x, path);
  const result = obj(o.result, `${path}.result`);
  const status = str(result.status, `${path}.result.status`);
  let outcome: CommandOutcome;
  if (status === "success") {
    outcome = { ok: true, data: result.data ?? null };
  } else if (status === "failure") {
    const error = obj(result.error, `${path}.result.error`);
    outcome = {
      ok: false,
      message: str(error.message, `${path}.result.error.message`),
      type: typeof error.type === "string" ? error.type : null,
    };
  } else {
    return reject(`${path}.result.status`, '"success" or "failure"');
  }
  const meta = isJsonObject(o.metaData) ? o.metaData : null;
  const height = meta?.blockHash === undefined ? null : meta.blockHeight;
  return {
    reqKey: str(o.reqKey, `${path}.reqKey`),
    gas: jsonNatural(o.gas, `${path}.gas`),
    outcome,
    blockHeight: height == null ? null : jsonNatural(height, `${path}.metaData.blockHeight`),
    blockHash:
      meta?.blockHash === undefined ? null : str(meta.blockHash, `${path}.metaData.blockHash`),
    continuation: o.continuation ?? null,
  };
}

export function parseCommandResult(raw: JsonValue): Decoded<CommandResultView> {
  return decode(raw, () => readResult(raw, "result"));
}

export function parsePreflight(raw: JsonValue): Decoded<PreflightView> {
  return decode(raw, () => {
    const o = obj(raw, "preflight");
    const warnings = o.preflightWarnings;
    return {
      result: readResult(o.preflightResult, "preflightResult"),
      warnings: Array.isArray(warnings)
        ? warnings.map((w, i) => str(w, `preflightWarnings[${i}]`))
        : reject("preflightWarnings", "an array"),
    };
  });
}

/** `/poll`'s `{key: result}` map. */
export function parsePollResults(raw: JsonValue): Decoded<ReadonlyMap<string, CommandResultView>> {
  return decode(raw, () => {
    const o = obj(raw, "poll");
    return new Map(Object.keys(o).map((k) => [k, readResult(o[k], `poll.${k}`)]));
  });
}

/** `/send`'s `{requestKeys: […]}`. */
export function parseRequestKeys(raw: JsonValue): Decoded<readonly string[]> {
  return decode(raw, () => {
    const keys = obj(raw, "send").requestKeys;
    return Array.isArray(keys)
      ? keys.map((k, i) => str(k, `requestKeys[${i}]`))
      : reject("requestKeys", "an array");
  });
}
