/**
 * Headers across the execution worker boundary (src-node/exec/execProtocol.ts):
 * a header is encoded once per object, and a header read again with the same
 * bytes is the one already checked, while other bytes are still decoded and
 * their hash checked.
 */
import { describe, expect, it } from "vitest";
import { genesisHeaderOf } from "../../src-node/chain/genesisHeader.ts";
import { buildGenesisPayload } from "../../src-node/chain/genesisPayload.ts";
import { developmentVersion } from "../../src-node/chain/versions.ts";
import { parseToExecWorker, wireHeader } from "../../src-node/exec/execProtocol.ts";

const payload = buildGenesisPayload([]).payloadHash;

function localMessage(parent: Uint8Array): unknown {
  return {
    kind: "local",
    id: 1,
    parent,
    body: {},
    preflight: false,
    signatureVerification: true,
  };
}

function parentOf(message: unknown): unknown {
  return (parseToExecWorker(message) as { parent: unknown }).parent;
}

describe("[exec] headers at the worker boundary", () => {
  it("encodes a header once per object and reads repeated bytes as the same header", () => {
    const a = genesisHeaderOf(developmentVersion, 0, payload);
    const b = genesisHeaderOf(developmentVersion, 1, payload);
    expect(wireHeader(a)).toBe(wireHeader(a));
    expect(parentOf(localMessage(wireHeader(a)))).toEqual(a);
    expect(parentOf(localMessage(wireHeader(a).slice()))).toEqual(a);
    expect(parentOf(localMessage(wireHeader(b)))).toEqual(b);
    expect(parentOf(localMessage(wireHeader(a)))).toEqual(a);
  });

  it("still checks the hash of bytes it has not read last", () => {
    const a = genesisHeaderOf(developmentVersion, 0, payload);
    expect(parentOf(localMessage(wireHeader(a)))).toEqual(a);
    const tampered = wireHeader(a).slice();
    tampered[8] = (tampered[8] ?? 0) ^ 1;
    expect(() => parseToExecWorker(localMessage(tampered))).toThrow(/parent/);
    // The bytes read before are unchanged by the copy that was tampered with.
    expect(parentOf(localMessage(wireHeader(a)))).toEqual(a);
  });
});
