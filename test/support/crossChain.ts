/**
 * Commands of cross-chain tests: step 0 of `coin.transfer-crosschain`
 * (signed by a test account with TRANSFER_XCHAIN and GAS) and continuations
 * (`cont` payloads, optionally with a proof, signed by any key pairs, e.g.
 * the gas station's GAS_PAYER signer).
 */
import type { Capability, Command, CommandPayload } from "../../src-node/command/commandTypes.ts";
import { JsonNumber, type JsonObject } from "../../src-node/command/exactJson.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { devKey } from "./execChain.ts";

const { buildCommand, signCommand } = nodeCommands;

export type KeyPair = { readonly publicKey: string; readonly secretKey: string };

let nonces = 0;

function nonce(label: string): string {
  return `${label}-${process.pid}-${Date.now()}-${nonces++}`;
}

function signed(payload: CommandPayload, keys: readonly KeyPair[]): Command {
  return signCommand(buildCommand(payload), payload.signers, keys);
}

function meta(chainId: number, sender: string, gasLimit: number, gasPrice: string) {
  return {
    chainId: String(chainId),
    sender,
    gasLimit,
    gasPrice,
    ttl: 3600,
    creationTime: Math.floor(Date.now() / 1000) - 60,
  };
}

/** `(coin.transfer-crosschain sender receiver (read-keyset "ks") target amount)` by test account `from`. */
export function crossChainTransfer(spec: {
  readonly from: number;
  readonly receiver: string;
  readonly receiverKeys: readonly string[];
  readonly amount: string;
  readonly sourceChain: number;
  readonly targetChain: number;
  readonly network?: string;
}): Command {
  const key = devKey(spec.from);
  const sender = `sender0${spec.from}`;
  const amount = JsonNumber.of(spec.amount) as JsonNumber;
  const target = String(spec.targetChain);
  const caps: Capability[] = [
    { name: "coin.TRANSFER_XCHAIN", args: [sender, spec.receiver, amount, target] },
    { name: "coin.GAS", args: [] },
  ];
  return signed(
    {
      payload: {
        exec: {
          code: `(coin.transfer-crosschain "${sender}" "${spec.receiver}" (read-keyset "ks") "${target}" ${spec.amount})`,
          data: { ks: { keys: [...spec.receiverKeys], pred: "keys-all" } },
        },
      },
      meta: meta(spec.sourceChain, sender, 2500, "0.00000001"),
      signers: [{ pubKey: key.publicKey, clist: caps }],
      networkId: spec.network ?? "test-singleton",
      nonce: nonce("xchain"),
    },
    [key],
  );
}

/** A continuation command. Default: sender01 pays, signed by sender01 unrestricted. */
export function continuation(spec: {
  readonly pactId: string;
  readonly step: number;
  readonly rollback?: boolean;
  readonly proof?: string | null;
  readonly data?: JsonObject | null;
  readonly chainId: number;
  readonly sender?: string;
  readonly gasLimit?: number;
  readonly gasPrice?: string;
  readonly signers?: readonly { readonly key: KeyPair; readonly caps: readonly Capability[] }[];
  readonly network?: string;
}): Command {
  const signers = spec.signers ?? [{ key: devKey(1), caps: [] }];
  return signed(
    {
      payload: {
        cont: {
          pactId: spec.pactId,
          step: spec.step,
          rollback: spec.rollback ?? false,
          data: spec.data ?? null,
          proof: spec.proof ?? null,
        },
      },
      meta: meta(
        spec.chainId,
        spec.sender ?? "sender01",
        spec.gasLimit ?? 2500,
        spec.gasPrice ?? "0.00000001",
      ),
      signers: signers.map((s) => ({ pubKey: s.key.publicKey, clist: s.caps })),
      networkId: spec.network ?? "test-singleton",
      nonce: nonce("cont"),
    },
    signers.map((s) => s.key),
  );
}

/** The gas station's signer capability for a continuation credited to `receiver`. */
export function gasPayerCaps(receiver: string): Capability[] {
  return [
    {
      name: "gas-station.GAS_PAYER",
      args: [receiver, { int: 1000 }, JsonNumber.of("0.00000001") as JsonNumber],
    },
  ];
}
