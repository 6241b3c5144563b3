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
 * ```
 * @module
 */
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
  /** `metaData` as JSON text, or null. */
  readonly metaData: string | null;
  readonly continuation: PactExec | null;
  readonly txId: number | null;
};

function str(s: string): string {
  return pactValueToJsonText({ kind: "string", value: s });
}

/** The `result` object's JSON text. */
export function resultJsonText(result: EvalResult<PactValue>): string {
  if (result.ok) {
    const v = result.value;
    const data =
      v.kind === "integer"
        ? pactValueToJsonText({ kind: "decimal", value: { mantissa: v.value, scale: 0 } })
        : pactValueToJsonText(v);
    return `{"status":"success","data":${data}}`;
  }
  const e = result.error;
  return `{"status":"failure","error":{"callStack":[${e.callStack.map(str).join(",")}],"type":${str(e.kind)},"message":${str(e.message)},"info":${str(renderInfo(e.span))}}}`;
}

/** The `logs` of a run that wrote nothing (every /local legacy run, every failure). */
const EMPTY_LOGS_HASH = base64UrlEncode(blake2b256(txWritesToJsonText([])));

/** The `logs` hash of a write log. */
export function logsHashOf(writes: readonly TxWrite[]): string {
  // Blake2b-256 runs in JavaScript (noble): skip it on the hot /local path.
  if (writes.length === 0) return EMPTY_LOGS_HASH;
  return base64UrlEncode(blake2b256(txWritesToJsonText(writes)));
}

/** The command result's JSON text. */
export function commandResultText(p: CommandResultParts): string {
  const events =
    p.events.length === 0 ? "" : `,"events":[${p.events.map(pactEventToJsonText).join(",")}]`;
  const logs = p.logs === null ? "null" : str(logsHashOf(p.logs));
  const continuation = p.continuation === null ? "null" : pactExecToJsonText(p.continuation);
  return `{"gas":${p.gas},"result":${resultJsonText(p.result)},"reqKey":${str(p.reqKey)},"logs":${logs}${events},"metaData":${p.metaData ?? "null"},"continuation":${continuation},"txId":${p.txId === null ? "null" : String(p.txId)}}`;
}

/**
 * The parts of the result of a contract run (`runContractCommand`): the
 * writes only when the run committed (it has a txId).
 */
export function commandResultOf(
  reqKey: string,
  outcome: ContractOutcome,
  metaData: string | null = null,
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
