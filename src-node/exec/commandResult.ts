/**
 * The command result (reference pact-language.md §3.3, chainweb-api.md
 * §11.5) as JSON text, exactly as block outputs carry it and /poll returns
 * it: keys in the reference's order `gas`, `result`, `reqKey`, `logs`,
 * `events` (left out when empty), `metaData`, `continuation`, `txId`. The
 * text is what a payload's outputs hash commits to, so it is assembled from
 * exact parts (contract JSON text), never re-serialized through JavaScript
 * numbers.
 *
 * - `result`: `{"status":"success","data":V}` with a top-level integer shown
 *   as a decimal (the reference's lenient conversion), or
 *   `{"status":"failure","error":{"callStack","type","message","info"}}`;
 * - `logs`: unpadded base64url Blake2b-256 of the write log's JSON
 *   (`[{"table","key","value"}…]`, contract/commandJson.ts), null when
 *   nothing was committed;
 * - `continuation`: the defpact state the command left, or null.
 *
 * @example
 * ```ts
 * const out = runContractCommand({...});
 * const text = commandResultText(commandResultOf(reqKey, out));
 * const polled = writeCommandResult({ ...readCommandResult(text), metaData: { blockHeight: 1 } });
 * ```
 * @module
 */

import {
  type JsonObject,
  jsonNumber,
  jsonString,
  parseJsonExact,
  RawJson,
  readJsonMembers,
  stringifyJson,
} from "../command/exactJson.ts";
import { pactEventToJsonText, txWritesToJsonText } from "../contract/commandJson.ts";
import { renderInfo } from "../contract/errors.ts";
import type { PactEvent, TxWrite } from "../contract/eval/txState.ts";
import type { EvalResult } from "../contract/evaluate.ts";
import type { ContractOutcome } from "../contract/execute.ts";
import { type PactExec, pactExecToJsonText } from "../contract/storage/pactExec.ts";
import { pactValueToJsonText } from "../contract/values/json.ts";
import type { PactValue } from "../contract/values/value.ts";
import { blake2b256 } from "../crypto/blake2.ts";
import { base64UrlEncode } from "../encoding/base64url.ts";
import { execInvariant } from "./errors.ts";

/**
 * `metaData`: what /local (public data) or /poll (the block) adds; a stored
 * result's is read back as its text.
 */
export type CommandMetaData = JsonObject | RawJson;

/** A command result as the wire has it, part by part, in the reference's key order. */
export type CommandResult = {
  readonly gas: number;
  /** `{"status":"success","data":…}` or `{"status":"failure","error":{…}}`. */
  readonly result: RawJson;
  readonly reqKey: string;
  readonly logs: string | null;
  /** The events array; null (no events) leaves `events` out. */
  readonly events: RawJson | null;
  readonly metaData: CommandMetaData | null;
  readonly continuation: RawJson | null;
  readonly txId: number | null;
};

/** Everything a command result says. */
export type CommandResultParts = {
  /** The command's request key. */
  readonly reqKey: string;
  /** Gas charged. */
  readonly gas: number;
  readonly result: EvalResult<PactValue>;
  /**
   * The committed writes (hashed into `logs`); [] when nothing was committed,
   * so `logs` is a string as the spec types it. null renders `null`, as the
   * reference's own outputs sometimes do; the node never passes it.
   */
  readonly logs: readonly TxWrite[] | null;
  readonly events: readonly PactEvent[];
  readonly metaData: CommandMetaData | null;
  readonly continuation: PactExec | null;
  readonly txId: number | null;
};

/** The `result` object's JSON text. */
export function resultJsonText(result: EvalResult<PactValue>): string {
  if (result.ok) {
    const v = result.value;
    const data =
      v.kind === "integer"
        ? pactValueToJsonText({ kind: "decimal", value: { mantissa: v.value, scale: 0 } })
        : pactValueToJsonText(v);
    // Every /local answer and block output: written directly, not through the generic walk.
    return `{"status":"success","data":${data}}`;
  }
  const e = result.error;
  return stringifyJson({
    status: "failure",
    error: {
      callStack: e.callStack,
      type: e.kind,
      message: e.message,
      info: renderInfo(e.span),
    },
  });
}

/** The `logs` of a run that wrote nothing (every /local legacy run, every failure). */
const EMPTY_LOGS_HASH = base64UrlEncode(blake2b256(txWritesToJsonText([])));

/** The `logs` hash of a write log. */
export function logsHashOf(writes: readonly TxWrite[]): string {
  // Blake2b-256 runs in JavaScript (noble): skip it on the hot /local path.
  if (writes.length === 0) return EMPTY_LOGS_HASH;
  return base64UrlEncode(blake2b256(txWritesToJsonText(writes)));
}

/** The wire form of a command result's parts. */
export function commandResultJson(p: CommandResultParts): CommandResult {
  return {
    gas: p.gas,
    result: new RawJson(resultJsonText(p.result)),
    reqKey: p.reqKey,
    logs: p.logs === null ? null : logsHashOf(p.logs),
    events:
      p.events.length === 0
        ? null
        : new RawJson(stringifyJson(p.events.map((e) => new RawJson(pactEventToJsonText(e))))),
    metaData: p.metaData,
    continuation: p.continuation === null ? null : new RawJson(pactExecToJsonText(p.continuation)),
    txId: p.txId,
  };
}

/** The one writer of command result JSON text. */
export function writeCommandResult(r: CommandResult): string {
  // Written part by part in the fixed key order rather than through stringifyJson's
  // generic walk: every /local answer and every block output passes here.
  let out = `{"gas":${jsonNumber(r.gas)},"result":${r.result.text},"reqKey":${jsonString(r.reqKey)},"logs":${r.logs === null ? "null" : jsonString(r.logs)}`;
  if (r.events !== null) out += `,"events":${r.events.text}`;
  const meta = r.metaData;
  out += `,"metaData":${meta === null ? "null" : meta instanceof RawJson ? meta.text : stringifyJson(meta)}`;
  out += `,"continuation":${r.continuation === null ? "null" : r.continuation.text}`;
  return `${out},"txId":${r.txId === null ? "null" : jsonNumber(r.txId)}}`;
}

/** The command result's JSON text. */
export function commandResultText(p: CommandResultParts): string {
  return writeCommandResult(commandResultJson(p));
}

function member(members: Map<string, RawJson>, key: string): RawJson {
  const m = members.get(key);
  if (m === undefined) throw execInvariant(`a stored command result has no ${jsonString(key)}`);
  return m;
}

function integerOrNull(raw: RawJson, key: string): number | null {
  if (raw.text === "null") return null;
  const n = Number(raw.text);
  if (!Number.isSafeInteger(n))
    throw execInvariant(`a stored command result's ${key} is ${raw.text}`);
  return n;
}

function stringOrNull(raw: RawJson, key: string): string | null {
  const v = parseJsonExact(raw.text);
  if (v !== null && typeof v !== "string") {
    throw execInvariant(`a stored command result's ${key} is not a string`);
  }
  return v;
}

/**
 * A command result text this node wrote (a block output), read back part by
 * part; {@link writeCommandResult} of it gives the same text.
 * @throws {ExecError} EXEC_INVARIANT when the text is not a command result.
 */
export function readCommandResult(text: string): CommandResult {
  const m = readJsonMembers(text);
  if (m === null) throw execInvariant("a stored command result is not a JSON object");
  const gas = integerOrNull(member(m, "gas"), "gas");
  const reqKey = stringOrNull(member(m, "reqKey"), "reqKey");
  if (gas === null || reqKey === null) {
    throw execInvariant("a stored command result has no gas or request key");
  }
  const metaData = member(m, "metaData");
  const continuation = member(m, "continuation");
  return {
    gas,
    result: member(m, "result"),
    reqKey,
    logs: stringOrNull(member(m, "logs"), "logs"),
    events: m.get("events") ?? null,
    metaData: metaData.text === "null" ? null : metaData,
    continuation: continuation.text === "null" ? null : continuation,
    txId: integerOrNull(member(m, "txId"), "txId"),
  };
}

/**
 * The parts of the result of a contract run (`runContractCommand`): the
 * writes only when the run committed (it has a txId).
 */
export function commandResultOf(
  reqKey: string,
  outcome: ContractOutcome,
  metaData: CommandMetaData | null = null,
): CommandResultParts {
  return {
    reqKey,
    gas: outcome.gasUsed,
    result: outcome.result,
    logs: outcome.txId === null ? [] : outcome.logs,
    events: outcome.events,
    metaData,
    continuation: outcome.continuation,
    txId: outcome.txId,
  };
}
