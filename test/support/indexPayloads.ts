/**
 * Payloads for tests and benchmarks of the explorer index: blocks whose
 * transactions are well-formed signed-command JSON with command-result
 * outputs (request key, gas, result, `coin.TRANSFER` events, a defpact
 * continuation for cross-chain steps), as a node's blocks carry them, but
 * without executing anything (the index reads payloads; a BlockDb without
 * an executor takes them). The same transfer given to two branches has the
 * same request key, so a fork can confirm it on either.
 */
import { createHash } from "node:crypto";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { minerDataBytes } from "../../src-node/chain/minerData.ts";
import {
  buildPayloadWithOutputs,
  type PayloadTransaction,
  type PayloadWithOutputs,
} from "../../src-node/chain/payloadWithOutputs.ts";
import type { PayloadSource } from "./chainBuilder.ts";

const encoder = new TextEncoder();

export type TestTransfer = {
  readonly from: string;
  readonly to: string;
  /** Decimal text, e.g. "1.5". */
  readonly amount: string;
  /** Makes otherwise equal transfers differ (default ""). */
  readonly nonce?: string;
  /** A cross-chain transfer's first step, to this chain. */
  readonly targetChain?: number;
  /** A continuation (step 1) of the cross-chain transfer with this pact id. */
  readonly continues?: string;
  /** A deployment of this module (the command's code is `(module NAME …)`). */
  readonly deploys?: string;
};

function requestKeyOf(cmd: string): string {
  return createHash("sha256").update(cmd).digest("base64url");
}

/** The command JSON text of a transfer on `chainId` and its request key. */
export function transferCommand(chainId: number, t: TestTransfer): { cmd: string; key: string } {
  const payload =
    t.continues !== undefined
      ? { cont: { pactId: t.continues, step: 1, rollback: false, data: {}, proof: null } }
      : t.deploys !== undefined
        ? { exec: { code: `(module ${t.deploys} G (defcap G () true) (defun f () 1))`, data: {} } }
        : t.targetChain !== undefined
          ? {
              exec: {
                code: `(coin.transfer-crosschain "${t.from}" "${t.to}" (read-keyset "ks") "${t.targetChain}" ${t.amount})`,
                data: {},
              },
            }
          : { exec: { code: `(coin.transfer "${t.from}" "${t.to}" ${t.amount})`, data: {} } };
  const cmd = JSON.stringify({
    payload,
    meta: {
      chainId: String(chainId),
      sender: t.from === "" ? "gas-station" : t.from,
      gasLimit: 1000,
      gasPrice: 1e-8,
      ttl: 600,
      creationTime: 1_700_000_000,
    },
    signers: [{ pubKey: "00".repeat(32), clist: [{ name: "coin.GAS", args: [] }] }],
    networkId: "test-singleton",
    nonce: t.nonce ?? "",
  });
  return { cmd, key: requestKeyOf(cmd) };
}

function event(module: string, name: string, params: string): string {
  return `{"params":${params},"name":"${name}","module":{"namespace":null,"name":"${module}"},"moduleHash":"h"}`;
}

/** One payload transaction of a transfer on `chainId` (success, gas 526). */
export function transferTransaction(chainId: number, t: TestTransfer): PayloadTransaction {
  const { cmd, key } = transferCommand(chainId, t);
  const events: string[] = [];
  let continuation = "null";
  let data = '"Write succeeded"';
  if (t.deploys !== undefined) {
    data = `"Loaded module ${t.deploys}, hash h"`;
  } else if (t.continues !== undefined) {
    events.push(event("coin", "TRANSFER", `["","${t.to}",${t.amount}]`));
    continuation = `{"executed":null,"pactId":"${t.continues}","stepHasRollback":false,"step":1,"yield":null,"continuation":{"def":"coin.transfer-crosschain","args":[]},"stepCount":2}`;
  } else if (t.targetChain !== undefined) {
    events.push(event("coin", "TRANSFER", `["${t.from}","",${t.amount}]`));
    events.push(
      event("coin", "TRANSFER_XCHAIN", `["${t.from}","${t.to}",${t.amount},"${t.targetChain}"]`),
    );
    continuation = `{"executed":null,"pactId":"${key}","stepHasRollback":false,"step":0,"yield":{"data":{"amount":${t.amount},"receiver":"${t.to}"},"provenance":{"targetChainId":"${t.targetChain}","moduleHash":"h"},"source":"${chainId}"},"continuation":{"def":"coin.transfer-crosschain","args":[]},"stepCount":2}`;
  } else {
    events.push(event("coin", "TRANSFER", `["${t.from}","${t.to}",${t.amount}]`));
  }
  const output = `{"gas":526,"result":{"status":"success","data":${data}},"reqKey":"${key}","logs":null${events.length > 0 ? `,"events":[${events.join(",")}]` : ""},"metaData":null,"continuation":${continuation},"txId":1}`;
  return {
    transaction: encoder.encode(JSON.stringify({ hash: key, sigs: [], cmd })),
    output: encoder.encode(output),
  };
}

/** A payload of these transfers, mined by `miner`. */
export function transferPayload(
  chainId: number,
  transfers: readonly TestTransfer[],
  miner: string,
): PayloadWithOutputs {
  return buildPayloadWithOutputs({
    transactions: transfers.map((t) => transferTransaction(chainId, t)),
    minerData: minerDataBytes({ account: miner, predicate: "keys-all", publicKeys: [] }),
    coinbase: encoder.encode(`{"gas":0,"result":{"status":"success","data":"Write succeeded"}}`),
  });
}

/**
 * A ChainBuilder payload source: each block of a builder (by its label) on
 * a chain takes the transfers queued for that label and chain (or
 * `perBlock` generated ones, for benchmarks), mined by `miner-<label>`.
 */
export class TransferPayloads implements PayloadSource {
  readonly #queued = new Map<string, TestTransfer[]>();
  readonly #perBlock: ((parent: BlockHeader, label: string) => TestTransfer[]) | undefined;

  constructor(perBlock?: (parent: BlockHeader, label: string) => TestTransfer[]) {
    this.#perBlock = perBlock;
  }

  /** Puts `transfers` into the next block the builder labelled `label` makes on `chainId`. */
  queue(label: string, chainId: number, ...transfers: TestTransfer[]): void {
    const k = `${label}/${chainId}`;
    this.#queued.set(k, [...(this.#queued.get(k) ?? []), ...transfers]);
  }

  payloadFor(parent: BlockHeader, label: string): PayloadWithOutputs {
    const k = `${label}/${parent.chainId}`;
    const transfers = [...(this.#queued.get(k) ?? []), ...(this.#perBlock?.(parent, label) ?? [])];
    this.#queued.delete(k);
    return transferPayload(parent.chainId, transfers, `miner-${label}`);
  }

  accept(): void {}
}
