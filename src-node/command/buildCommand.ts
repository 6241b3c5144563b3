/**
 * Building a command: the `cmd` text of a {@link CommandPayload} and its
 * request key. `cmd` is the JSON serialization of the payload with fixed key
 * orders (the spec tables' order) and exact numbers, so the same payload
 * always gives the same bytes and hash.
 * @module
 */

import type { CommandCrypto } from "./commandCrypto.ts";
import type {
  Capability,
  CommandPayload,
  PayloadMessage,
  PublicMeta,
  Signer,
  UnsignedCommand,
} from "./commandTypes.ts";
import { decimalText } from "./decimalText.ts";
import { commandInvariant } from "./errors.ts";
import { JsonNumber, type JsonObject, type JsonValue, stringifyJson } from "./exactJson.ts";

function payloadJson(p: PayloadMessage): JsonObject {
  if ("exec" in p) return { exec: { code: p.exec.code, data: p.exec.data } };
  const c = p.cont;
  return {
    cont: { pactId: c.pactId, step: c.step, rollback: c.rollback, data: c.data, proof: c.proof },
  };
}

function metaJson(m: PublicMeta): JsonObject {
  // gasPrice is decimal text; written as a JSON number with exactly that text.
  const text = decimalText(m.gasPrice, "meta.gasPrice");
  const price = JsonNumber.of(text);
  if (price === undefined) throw commandInvariant("meta.gasPrice", `not JSON number text: ${text}`);
  return {
    chainId: m.chainId,
    sender: m.sender,
    gasLimit: m.gasLimit,
    gasPrice: price,
    ttl: m.ttl,
    creationTime: m.creationTime,
  };
}

function capabilityJson(c: Capability): JsonObject {
  return { name: c.name, args: c.args };
}

function signerJson(s: Signer): JsonObject {
  const out: Record<string, JsonValue> = { pubKey: s.pubKey };
  if (s.scheme !== undefined) out.scheme = s.scheme;
  if (s.addr !== undefined) out.addr = s.addr;
  out.clist = s.clist.map(capabilityJson);
  return out;
}

/**
 * The `cmd` text of a payload: `{"payload","meta","signers","networkId","nonce"}`.
 * @throws {CommandError} CMD_BAD_FIELD when `meta.gasPrice` is not decimal text.
 */
export function cmdOf(payload: CommandPayload): string {
  return stringifyJson({
    payload: payloadJson(payload.payload),
    meta: metaJson(payload.meta),
    signers: payload.signers.map(signerJson),
    networkId: payload.networkId,
    nonce: payload.nonce,
  });
}

/** The `cmd` text and request key of a payload, ready to be signed. */
export function buildCommand(crypto: CommandCrypto, payload: CommandPayload): UnsignedCommand {
  const cmd = cmdOf(payload);
  return { cmd, hash: crypto.requestKeyOf(cmd) };
}
