/**
 * A transaction as the explorer shows it: its command (from the signed command's `cmd`,
 * read by the command model's exact parser) and its result (the command result JSON, read
 * exactly so amounts keep their digits), with events and a continuation in words.
 * @module
 */

import type { CommandPayload } from "../../../../../src-node/command/commandTypes.ts";
import {
  isJsonObject,
  JsonNumber,
  type JsonObject,
  type JsonValue,
  parseJsonExact,
  stringifyJson,
} from "../../../../../src-node/command/exactJson.ts";
import {
  parseCommandPayload,
  parsePayloadObject,
} from "../../../../../src-node/command/parseCommandPayload.ts";
import { reject } from "../../../api/decode.ts";
import { exactNumberText } from "../../../format/pactValueText.ts";

export type TxSigner = {
  readonly pubKey: string;
  /** Each capability as `(coin.TRANSFER "a" "b" 1.0)`. */
  readonly caps: readonly string[];
};

export type TxCommand = {
  readonly requestKey: string;
  readonly chainId: string;
  readonly sender: string;
  readonly gasLimit: number;
  readonly gasPrice: string;
  readonly ttl: number;
  /** Seconds since the UNIX epoch. */
  readonly creationTime: number;
  readonly networkId: string | null;
  readonly nonce: string;
  /** The exec code, or null for a continuation. */
  readonly code: string | null;
  readonly cont: {
    readonly pactId: string;
    readonly step: number;
    readonly rollback: boolean;
    readonly hasProof: boolean;
  } | null;
  /** The message data as JSON text, or null. */
  readonly data: string | null;
  readonly signers: readonly TxSigner[];
};

export type TxEvent = {
  /** `coin`, `free.my-module` */
  readonly module: string;
  readonly name: string;
  /** Each parameter as exact JSON text. */
  readonly params: readonly string[];
};

export type TxContinuation = {
  readonly pactId: string;
  readonly step: number;
  readonly stepCount: number;
  readonly executed: boolean | null;
  /** The chain a cross-chain step yields to, or null. */
  readonly targetChainId: string | null;
  /** `coin.transfer-crosschain` */
  readonly def: string | null;
};

export type TxResult = {
  readonly requestKey: string;
  readonly ok: boolean;
  /** The result's value as JSON text, or the error's message. */
  readonly value: string;
  readonly gas: number;
  readonly events: readonly TxEvent[];
  readonly continuation: TxContinuation | null;
  readonly txId: number | null;
  readonly blockHeight: number | null;
  readonly blockHash: string | null;
};

function member(o: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

function asNumber(v: JsonValue | undefined, path: string): number {
  if (typeof v === "number") return v;
  if (v instanceof JsonNumber) {
    const n = Number(v.text);
    if (Number.isFinite(n)) return n;
  }
  return reject(path, "a number");
}

function asString(v: JsonValue | undefined, path: string): string {
  return typeof v === "string" ? v : reject(path, "a string");
}

function asObject(v: JsonValue | undefined, path: string): JsonObject {
  return isJsonObject(v) ? v : reject(path, "an object");
}

/** A Pact value's JSON as short text: `{"int":5}` → `5`, `{"decimal":"1.5"}` → `1.5`. */
export function valueText(v: JsonValue): string {
  if (isJsonObject(v)) {
    const n = exactNumberText(v);
    if (n !== null) return n;
  }
  return stringifyJson(v);
}

function moduleName(v: JsonValue | undefined, path: string): string {
  const m = asObject(v, path);
  const name = asString(member(m, "name"), `${path}.name`);
  const ns = member(m, "namespace");
  return typeof ns === "string" && ns !== "" ? `${ns}.${name}` : name;
}

function eventAt(v: JsonValue, path: string): TxEvent {
  const o = asObject(v, path);
  const params = member(o, "params");
  if (!Array.isArray(params)) reject(`${path}.params`, "an array");
  return {
    module: moduleName(member(o, "module"), `${path}.module`),
    name: asString(member(o, "name"), `${path}.name`),
    params: (params as readonly JsonValue[]).map(valueText),
  };
}

function continuationAt(v: JsonValue | undefined, path: string): TxContinuation | null {
  if (v === undefined || v === null) return null;
  const o = asObject(v, path);
  const yielded = member(o, "yield");
  let targetChainId: string | null = null;
  if (isJsonObject(yielded)) {
    const prov = member(yielded, "provenance");
    if (isJsonObject(prov) && typeof prov.targetChainId === "string") {
      targetChainId = prov.targetChainId;
    }
  }
  const cont = member(o, "continuation");
  const def = isJsonObject(cont) && typeof cont.def === "string" ? cont.def : null;
  const executed = member(o, "executed");
  return {
    pactId: asString(member(o, "pactId"), `${path}.pactId`),
    step: asNumber(member(o, "step"), `${path}.step`),
    stepCount: asNumber(member(o, "stepCount"), `${path}.stepCount`),
    executed: typeof executed === "boolean" ? executed : null,
    targetChainId,
    def,
  };
}

/** Reads a command result (exact JSON value) at `path`; throws through `reject`. */
export function resultAt(v: JsonValue | null | undefined, path: string): TxResult {
  if (v === null || v === undefined) return reject(path, "a command result");
  const o = asObject(v, path);
  const result = asObject(member(o, "result"), `${path}.result`);
  const status = asString(member(result, "status"), `${path}.result.status`);
  if (status !== "success" && status !== "failure") {
    reject(`${path}.result.status`, "success or failure");
  }
  let value: string;
  if (status === "success") {
    const data = member(result, "data");
    value = data === undefined ? "" : valueText(data);
  } else {
    const error = member(result, "error");
    value = isJsonObject(error)
      ? typeof error.message === "string"
        ? error.message
        : stringifyJson(error)
      : error === undefined
        ? "failed"
        : valueText(error);
  }
  const events = member(o, "events");
  const txId = member(o, "txId");
  const meta = member(o, "metaData");
  const blockHeight = isJsonObject(meta) ? member(meta, "blockHeight") : undefined;
  const blockHash = isJsonObject(meta) ? member(meta, "blockHash") : undefined;
  return {
    requestKey: asString(member(o, "reqKey"), `${path}.reqKey`),
    ok: status === "success",
    value,
    gas: asNumber(member(o, "gas"), `${path}.gas`),
    events:
      events === undefined || events === null
        ? []
        : Array.isArray(events)
          ? (events as readonly JsonValue[]).map((e, i) => eventAt(e, `${path}.events[${i}]`))
          : reject(`${path}.events`, "an array"),
    continuation: continuationAt(member(o, "continuation"), `${path}.continuation`),
    txId: txId === undefined || txId === null ? null : asNumber(txId, `${path}.txId`),
    blockHeight:
      blockHeight === undefined ? null : asNumber(blockHeight, `${path}.metaData.blockHeight`),
    blockHash: typeof blockHash === "string" ? blockHash : null,
  };
}

/** Reads a command result from its JSON text. */
export function resultOfText(text: string, path: string): TxResult {
  return resultAt(parseJsonExact(text), path);
}

function capText(cap: { readonly name: string; readonly args: readonly JsonValue[] }): string {
  return `(${[cap.name, ...cap.args.map(valueText)].join(" ")})`;
}

/** Reads a signed command `{hash, sigs, cmd}` (JSON text) at `path`. */
export function commandOfText(text: string, path: string): TxCommand {
  let outer: unknown;
  try {
    outer = JSON.parse(text);
  } catch {
    return reject(path, "a command as JSON");
  }
  if (typeof outer !== "object" || outer === null) return reject(path, "a command");
  const { hash, cmd } = outer as { hash?: unknown; cmd?: unknown };
  if (typeof hash !== "string") return reject(`${path}.hash`, "a request key");
  if (typeof cmd !== "string") return reject(`${path}.cmd`, "the command's JSON text");
  return commandOfCmd(hash, cmd, path);
}

/** Reads a command's `cmd` text; `requestKey` is its hash. */
export function commandOfCmd(requestKey: string, cmd: string, path: string): TxCommand {
  let payload: CommandPayload;
  try {
    payload = parseCommandPayload(cmd, `${path}.cmd`);
  } catch (e) {
    return reject(`${path}.cmd`, `a command payload (${e instanceof Error ? e.message : e})`);
  }
  return commandOfPayload(requestKey, payload);
}

/** Reads a command's `cmd` already decoded from JSON (the explorer index sends it so). */
export function commandOfObject(requestKey: string, cmd: unknown, path: string): TxCommand {
  let payload: CommandPayload;
  try {
    payload = parsePayloadObject(cmd, `${path}.cmd`);
  } catch (e) {
    return reject(`${path}.cmd`, `a command payload (${e instanceof Error ? e.message : e})`);
  }
  return commandOfPayload(requestKey, payload);
}

function commandOfPayload(requestKey: string, payload: CommandPayload): TxCommand {
  const m = payload.payload;
  const data = "exec" in m ? m.exec.data : m.cont.data;
  return {
    requestKey,
    chainId: payload.meta.chainId,
    sender: payload.meta.sender,
    gasLimit: payload.meta.gasLimit,
    gasPrice: payload.meta.gasPrice,
    ttl: payload.meta.ttl,
    creationTime: payload.meta.creationTime,
    networkId: payload.networkId,
    nonce: payload.nonce,
    code: "exec" in m ? m.exec.code : null,
    cont:
      "cont" in m
        ? {
            pactId: m.cont.pactId,
            step: m.cont.step,
            rollback: m.cont.rollback,
            hasProof: m.cont.proof !== null && m.cont.proof !== "",
          }
        : null,
    data: data === null ? null : stringifyJson(data),
    signers: payload.signers.map((s) => ({ pubKey: s.pubKey, caps: s.clist.map(capText) })),
  };
}
