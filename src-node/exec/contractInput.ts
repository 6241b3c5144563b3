/**
 * What the contract language needs from a parsed command: the payload (code,
 * or a continuation), the message data and the signers' capabilities as
 * contract values, and the byte size the size charge is computed from.
 * Data and capability arguments are read again from the exact `cmd` text
 * (contract/values/json.ts `parseJsonExact`), because the contract language
 * tells `1.0` (decimal) from `{"int":1}` and needs every digit of a number.
 * @module
 */
import type { Signer as ContractSigner } from "../contract/eval/runtimeContext.ts";
import type { ContractPayload } from "../contract/execute.ts";
import {
  JsonNumberText,
  type JsonValue,
  pactValueFromJson,
  parseJsonExact,
} from "../contract/values/json.ts";
import { makeObject, type PactValue } from "../contract/values/value.ts";
import type { ParsedCommand } from "./commandTypes.ts";
import { badField } from "./fieldReaders.ts";

export type ContractInput = {
  readonly payload: ContractPayload;
  readonly data: PactValue;
  readonly signers: readonly ContractSigner[];
  /** UTF-8 bytes of `cmd` without a continuation's proof (the size charge's input). */
  readonly sizeBytes: number;
};

type Obj = { readonly [k: string]: JsonValue };

function member(j: JsonValue | undefined, key: string): JsonValue | undefined {
  if (j === null || j === undefined || typeof j !== "object" || Array.isArray(j)) return undefined;
  if (j instanceof JsonNumberText) return undefined;
  return (j as Obj)[key];
}

function toValue(j: JsonValue, field: string): PactValue {
  const r = pactValueFromJson(j);
  if (!r.ok) throw badField(field, `contract data (${r.reason})`);
  return r.value;
}

/**
 * The contract inputs of a command that `parseCommand` accepted.
 * @param prefix names the command in errors, e.g. `"cmds[2]."`.
 * @throws {CommandError} CMD_BAD_FIELD when data or a capability argument is
 *   JSON the contract language has no value for (e.g. null).
 */
export function contractInputOf(command: ParsedCommand, prefix = ""): ContractInput {
  const p = command.payload;
  const given = "exec" in p.payload ? p.payload.exec : p.payload.cont;
  // Nothing to read exactly: no data, no capability arguments.
  if (
    (given.data === null || Object.keys(given.data).length === 0) &&
    p.signers.every((s) => s.clist.every((c) => c.args.length === 0))
  ) {
    return {
      payload: payloadOf(p.payload),
      data: makeObject([]),
      signers: p.signers.map((s) => ({
        pubKey: s.pubKey,
        scheme: "ED25519",
        addr: s.addr ?? null,
        caps: s.clist.map((c) => ({ name: c.name, args: [] })),
      })),
      sizeBytes: sizeOf(command),
    };
  }
  const exact = parseJsonExact(command.cmd);
  const message = member(member(exact, "payload"), "exec" in p.payload ? "exec" : "cont");
  const rawData = member(message, "data");
  const dataField = `${prefix}cmd.payload.${"exec" in p.payload ? "exec" : "cont"}.data`;
  const data =
    rawData === undefined || rawData === null ? makeObject([]) : toValue(rawData, dataField);
  const rawSigners = member(exact, "signers");
  const signers = p.signers.map((s, i): ContractSigner => {
    const rawSigner = Array.isArray(rawSigners) ? (rawSigners[i] as JsonValue) : undefined;
    const rawClist = member(rawSigner, "clist");
    return {
      pubKey: s.pubKey,
      scheme: "ED25519",
      addr: s.addr ?? null,
      caps: s.clist.map((c, k) => {
        const rawCap = Array.isArray(rawClist) ? (rawClist[k] as JsonValue) : undefined;
        const rawArgs = member(rawCap, "args");
        const args = Array.isArray(rawArgs) ? (rawArgs as readonly JsonValue[]) : [];
        return {
          name: c.name,
          args: args.map((a, n) => toValue(a, `${prefix}cmd.signers[${i}].clist[${k}].args[${n}]`)),
        };
      }),
    };
  });
  return { payload: payloadOf(p.payload), data, signers, sizeBytes: sizeOf(command) };
}

function payloadOf(p: ParsedCommand["payload"]["payload"]): ContractPayload {
  if ("exec" in p) return { kind: "exec", code: p.exec.code };
  const c = p.cont;
  return { kind: "cont", pactId: c.pactId, step: c.step, rollback: c.rollback, proof: c.proof };
}

/** UTF-8 bytes of `cmd`, without a continuation's proof. */
function sizeOf(command: ParsedCommand): number {
  const bytes = Buffer.byteLength(command.cmd, "utf8");
  const p = command.payload.payload;
  const proof = "cont" in p ? p.cont.proof : null;
  return proof === null ? bytes : Math.max(0, bytes - Buffer.byteLength(proof, "utf8"));
}
