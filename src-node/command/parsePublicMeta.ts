/**
 * Reads the public metadata (`meta`) of a command payload. Integers may be
 * JSON numbers or numeric strings, the gas price a JSON number (`1e-8`) or a
 * numeric string; `ttl` and `creationTime` default to 0 when absent (older and
 * minimal `/local` clients omit them; the node's time rules then refuse the
 * command for submission, not for parsing). Range rules (gas limit of a block,
 * ttl window, chain of the endpoint) belong to execution, not here.
 * @module
 */
import type { PublicMeta } from "./commandTypes.ts";
import { decimalText } from "./decimalText.ts";
import { optional, readInteger, readObject, readString, required } from "./fieldReaders.ts";

function integerAt(o: Readonly<Record<string, unknown>>, key: string, field: string): number {
  const m = required(o, key, field);
  return readInteger(m.value, m.field);
}

/** An optional integer; absent or null reads as 0. */
function optionalIntegerAt(
  o: Readonly<Record<string, unknown>>,
  key: string,
  field: string,
): number {
  const m = optional(o, key, field);
  return m.value === undefined || m.value === null ? 0 : readInteger(m.value, m.field);
}

/** Reads `meta` at `field` (e.g. `"cmd.meta"`). */
export function parsePublicMeta(value: unknown, field: string): PublicMeta {
  const o = readObject(value, field);
  const chainId = required(o, "chainId", field);
  const sender = required(o, "sender", field);
  const gasPrice = required(o, "gasPrice", field);
  return {
    chainId: readString(chainId.value, chainId.field),
    sender: readString(sender.value, sender.field),
    gasLimit: integerAt(o, "gasLimit", field),
    gasPrice: decimalText(gasPrice.value, gasPrice.field),
    ttl: optionalIntegerAt(o, "ttl", field),
    creationTime: optionalIntegerAt(o, "creationTime", field),
  };
}
