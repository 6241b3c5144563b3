/**
 * Reads the `payload` field of a command payload: exactly one of an exec
 * message (`code`, `data`) or a continuation message (`pactId` or its neutral
 * name `contractTxHash`, `step`, `rollback`, `data`, `proof`). `data` may be
 * absent or null (no data) or a JSON object.
 * @module
 */
import type { ContMessage, ExecMessage, PayloadMessage } from "./commandTypes.ts";
import { CommandError, CommandErrorCode } from "./errors.ts";
import { isJsonObject, type JsonObject } from "./exactJson.ts";
import {
  badField,
  fieldPath,
  missingField,
  optional,
  readBoolean,
  readInteger,
  readObject,
  readString,
  required,
} from "./fieldReaders.ts";

function parseData(value: unknown, field: string): JsonObject | null {
  if (value === undefined || value === null) return null;
  if (!isJsonObject(value)) throw badField(field, "a JSON object or null");
  return value;
}

function parseExec(value: unknown, field: string): ExecMessage {
  const o = readObject(value, field);
  const code = required(o, "code", field);
  const data = optional(o, "data", field);
  return { code: readString(code.value, code.field), data: parseData(data.value, data.field) };
}

function parsePactId(o: Readonly<Record<string, unknown>>, field: string): string {
  const pactId = optional(o, "pactId", field);
  const neutral = optional(o, "contractTxHash", field);
  if (pactId.value === undefined && neutral.value === undefined) {
    throw missingField(pactId.field);
  }
  const a = pactId.value === undefined ? undefined : readString(pactId.value, pactId.field);
  const b = neutral.value === undefined ? undefined : readString(neutral.value, neutral.field);
  if (a !== undefined && b !== undefined && a !== b) {
    throw badField(neutral.field, "the same value as pactId when both are given");
  }
  return a ?? b ?? "";
}

function parseCont(value: unknown, field: string): ContMessage {
  const o = readObject(value, field);
  const step = required(o, "step", field);
  const rollback = required(o, "rollback", field);
  const data = optional(o, "data", field);
  const proof = optional(o, "proof", field);
  const stepValue = readInteger(step.value, step.field);
  if (stepValue < 0) throw badField(step.field, "an integer >= 0");
  return {
    pactId: parsePactId(o, field),
    step: stepValue,
    rollback: readBoolean(rollback.value, rollback.field),
    data: parseData(data.value, data.field),
    proof:
      proof.value === undefined || proof.value === null
        ? null
        : readString(proof.value, proof.field),
  };
}

/** Reads `payload` at `field` (e.g. `"cmd.payload"`). */
export function parsePayloadMessage(value: unknown, field: string): PayloadMessage {
  const o = readObject(value, field);
  const exec = optional(o, "exec", field);
  const cont = optional(o, "cont", field);
  const hasExec = exec.value !== undefined && exec.value !== null;
  const hasCont = cont.value !== undefined && cont.value !== null;
  if (hasExec && hasCont) throw badField(field, "exactly one of exec and cont, not both");
  if (hasExec) return { exec: parseExec(exec.value, exec.field) };
  if (hasCont) return { cont: parseCont(cont.value, cont.field) };
  const missing = fieldPath(field, "exec");
  throw new CommandError(
    { code: CommandErrorCode.MissingField, field: missing },
    `${missing}: missing; ${field} needs an exec or a cont message`,
  );
}
