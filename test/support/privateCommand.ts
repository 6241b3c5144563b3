/**
 * A signed `/private` command for tests: exec `code`, private metadata
 * `{"address": {"from", "to"}}`, signed by dev key 0 (docs/private.md).
 */
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { devKey } from "./execChain.ts";

export function privateCommand(spec: {
  readonly code: string;
  readonly from: string;
  readonly to: readonly string[];
  readonly nonce?: string;
  readonly network?: string;
}): { cmd: string; hash: string; sigs: { sig: string }[] } {
  const k = devKey(0);
  const cmd = JSON.stringify({
    payload: { exec: { code: spec.code, data: {} } },
    meta: { address: { from: spec.from, to: spec.to } },
    signers: [{ pubKey: k.publicKey }],
    networkId: spec.network ?? "test-singleton",
    nonce: spec.nonce ?? `private-${Math.random()}`,
  });
  const hash = nodeCommands.requestKeyOf(cmd);
  return { cmd, hash, sigs: [{ sig: nodeCommands.signRequestKey(hash, k.secretKey).sig }] };
}
