/**
 * What the contract language needs from a parsed command: the payload (code,
 * or a continuation), the message data and the signers' capabilities as
 * contract values, and the byte size the size charge is computed from.
 * Data and capability arguments are the exact JSON parseCommand read `cmd`
 * into (command/exactJson.ts: every number keeps its text, since the
 * contract language tells `1.0` (decimal) from `{"int":1}`): `cmd` is not
 * read again.
 * @module
 */
import type { ParsedCommand } from "../command/commandTypes.ts";
import type { JsonValue } from "../command/exactJson.ts";
import { badField } from "../command/fieldReaders.ts";
import type { Signer as ContractSigner } from "../contract/eval/runtimeContext.ts";
import type { ContractPayload } from "../contract/execute.ts";
import { pactValueFromJson } from "../contract/values/json.ts";
import { makeObject, type PactValue } from "../contract/values/value.ts";

export type ContractInput = {
  readonly payload: ContractPayload;
  readonly data: PactValue;
  readonly signers: readonly ContractSigner[];
  /** UTF-8 bytes of `cmd` without a continuation's proof (the size charge's input). */
  readonly sizeBytes: number;
};

function toValue(j: JsonValue, field: string): PactValue {
  const r = pactValueFromJson(j);
  if (!r.ok) throw badField(field, `contract data (${r.error})`);
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
  const kind = "exec" in p.payload ? "exec" : "cont";
  const given = "exec" in p.payload ? p.payload.exec : p.payload.cont;
  const data =
    given.data === null || Object.keys(given.data).length === 0
      ? makeObject([])
      : toValue(given.data, `${prefix}cmd.payload.${kind}.data`);
  const signers = p.signers.map(
    (s, i): ContractSigner => ({
      pubKey: s.pubKey,
      scheme: "ED25519",
      caps: s.clist.map((c, k) => ({
        name: c.name,
        args: c.args.map((a, n) => toValue(a, `${prefix}cmd.signers[${i}].clist[${k}].args[${n}]`)),
      })),
    }),
  );
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
