/**
 * JSON of what a command's contract run produced, for command results
 * (reference §3.3): events as `{"params","name","module","moduleHash"}` and
 * the write log as a list of `{"table","key","value"}` (whose hash is the
 * result's `logs`).
 * @module
 */
import type { PactEvent, TxWrite } from "./eval/txState.ts";
import { pactValueToJsonText } from "./values/json.ts";

/** A JSON string literal, escaped as every other contract JSON is. */
function str(s: string): string {
  return pactValueToJsonText({ kind: "string", value: s });
}

export function pactEventToJsonText(e: PactEvent): string {
  const ns = e.module.namespace === null ? "null" : str(e.module.namespace);
  return `{"params":[${e.params.map(pactValueToJsonText).join(",")}],"name":${str(e.name)},"module":{"namespace":${ns},"name":${str(e.module.name)}},"moduleHash":${str(e.moduleHash)}}`;
}

export function txWritesToJsonText(writes: readonly TxWrite[]): string {
  return `[${writes.map((w) => `{"table":${str(w.table)},"key":${str(w.key)},"value":${w.value}}`).join(",")}]`;
}
