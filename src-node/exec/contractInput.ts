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
  const exact = parseJsonExact(command.cmd);
  const p = command.payload;
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
  let sizeBytes = Buffer.byteLength(command.cmd, "utf8");
  if ("cont" in p.payload) {
    const proof = p.payload.cont.proof;
    if (proof !== null) sizeBytes = Math.max(0, sizeBytes - Buffer.byteLength(proof, "utf8"));
    return {
      payload: {
        kind: "cont",
        pactId: p.payload.cont.pactId,
        step: p.payload.cont.step,
        rollback: p.payload.cont.rollback,
        proof,
      },
      data,
      signers,
      sizeBytes,
    };
  }
  return { payload: { kind: "exec", code: p.payload.exec.code }, data, signers, sizeBytes };
}
