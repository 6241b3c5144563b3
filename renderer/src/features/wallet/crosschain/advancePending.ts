/**
 * One step of a pending cross-chain transfer against the node: poll step 1 on the source
 * chain; ask `/spv` for the target chain and build the continuation paid by the gas station;
 * check the continuation with a `/local`, send it, poll it on the target chain. Every answer
 * becomes a `PendingEvent` for the pure machine (`pendingTransfer.ts`); network failures
 * leave the transfer as it was (the next tick tries again), so nothing here throws.
 *
 * The continuation (docs/system-contracts.md "Gas stations"): sender `xchain-gas`, gas limit
 * 850, gas price 0.00000001, one signer scoped to `(gas-station.GAS_PAYER …)`. The signer is
 * a one-time key made for this command (the station needs a signature to carry the
 * capability, not a particular key), so finishing needs neither an unlocked wallet nor coins
 * on the target chain; the signed command is persisted and resent unchanged.
 * @module
 */
import { commandModel } from "../../../../../src-node/command/commandModel.ts";
import type { CommandPayload } from "../../../../../src-node/command/commandTypes.ts";
import { isJsonObject, JsonNumber } from "../../../../../src-node/command/exactJson.ts";
import type {
  PendingTransfer,
  StoredCommand,
} from "../../../../../src-node/walletFiles/pendingFile.ts";
import type { ClientError } from "../../../api/clientError.ts";
import type { CommandResultView } from "../../../api/commandResult.ts";
import type { PactClient } from "../../../api/pactClient.ts";
import { advance, type PendingEvent } from "./pendingTransfer.ts";

export const GAS_STATION_ACCOUNT = "xchain-gas";
export const CONTINUATION_GAS_LIMIT = 850;
export const CONTINUATION_GAS_PRICE = "0.00000001";
const CONTINUATION_TTL = 3600;

export type AdvanceDeps = {
  readonly pact: Pick<PactClient, "poll" | "spv" | "local" | "send">;
  readonly networkId: string;
  /** UNIX seconds. */
  readonly nowSeconds: () => number;
  /** 32 random bytes as hex: the one-time key of the continuation's signer. */
  readonly randomSecret: () => string;
};

/** Messages of a failed call: the node's own when it sent one. */
function messageOf(e: ClientError): string | null {
  return e.code === "CLIENT_HTTP_STATUS" ? (e.message ?? `HTTP ${e.status}`) : null;
}

/** The continuation of step 1 of `requestKey` on `targetChain`, signed by a one-time key. */
export function buildContinuation(
  p: PendingTransfer,
  proof: string,
  deps: AdvanceDeps,
): StoredCommand {
  const secret = deps.randomSecret();
  const limit = JsonNumber.of(String(CONTINUATION_GAS_LIMIT));
  const price = JsonNumber.of(CONTINUATION_GAS_PRICE);
  if (limit === undefined || price === undefined) throw new Error("bad constants");
  const payload: CommandPayload = {
    payload: { cont: { pactId: p.requestKey, step: 1, rollback: false, data: {}, proof } },
    meta: {
      chainId: String(p.targetChain),
      sender: GAS_STATION_ACCOUNT,
      gasLimit: CONTINUATION_GAS_LIMIT,
      gasPrice: CONTINUATION_GAS_PRICE,
      ttl: CONTINUATION_TTL,
      // A little in the past, so a node whose clock runs behind still takes it.
      creationTime: deps.nowSeconds() - 15,
    },
    signers: [
      {
        pubKey: commandModel.publicKeyOf(secret),
        clist: [{ name: "gas-station.GAS_PAYER", args: [p.receiver ?? "", { int: limit }, price] }],
      },
    ],
    networkId: deps.networkId,
    nonce: `xchain-${p.requestKey}-${deps.nowSeconds()}`,
  };
  const unsigned = commandModel.buildCommand(payload);
  const { sig } = commandModel.signRequestKey(unsigned.hash, secret);
  return { cmd: unsigned.cmd, hash: unsigned.hash, sigs: [{ sig }] };
}

/** Whether a polled step 1 started a two-step defpact towards `targetChain`. */
export function yieldTarget(result: CommandResultView): number | null {
  const c = result.continuation;
  if (!isJsonObject(c)) return null;
  const y = c.yield;
  if (!isJsonObject(y) || !isJsonObject(y.provenance)) return null;
  const t = y.provenance.targetChainId;
  return typeof t === "string" && /^\d{1,3}$/.test(t) ? Number(t) : null;
}

async function observe(p: PendingTransfer, deps: AdvanceDeps): Promise<PendingEvent | null> {
  switch (p.phase) {
    case "sent": {
      const polled = await deps.pact.poll(p.sourceChain, [p.requestKey]);
      if (!polled.ok) return null;
      const r = polled.value.get(p.requestKey);
      if (r === undefined) return { kind: "step1-pending" };
      if (!r.outcome.ok) return { kind: "step1-failed", message: r.outcome.message };
      return yieldTarget(r) === p.targetChain
        ? { kind: "step1-succeeded" }
        : { kind: "step1-not-crosschain" };
    }
    case "proof": {
      const proof = await deps.pact.spv(p.sourceChain, p.requestKey, p.targetChain);
      if (!proof.ok) {
        const message = messageOf(proof.error);
        // The target chain is not high enough yet, or the node is busy: ask again later.
        if (message === null || /too young|not reachable/i.test(message)) {
          return { kind: "proof-waiting" };
        }
        return { kind: "proof-failed", message };
      }
      return { kind: "proof", continuation: buildContinuation(p, proof.value, deps) };
    }
    case "finishing": {
      const c = p.continuation;
      if (c === null) return null;
      const polled = await deps.pact.poll(p.targetChain, [c.hash]);
      if (!polled.ok) return null;
      const r = polled.value.get(c.hash);
      if (r !== undefined) {
        return r.outcome.ok
          ? { kind: "cont-succeeded" }
          : { kind: "cont-failed", message: r.outcome.message };
      }
      if (p.continuationSent) return { kind: "cont-pending" };
      // A dry run first: a continuation finished elsewhere or an expired proof is told
      // apart without paying for it.
      const local = await deps.pact.local(p.targetChain, c);
      if (!local.ok) return null;
      if (!local.value.outcome.ok) {
        return { kind: "cont-send-failed", message: local.value.outcome.message };
      }
      const sent = await deps.pact.send(p.targetChain, [c]);
      if (!sent.ok) {
        const message = messageOf(sent.error);
        return message === null ? null : { kind: "cont-send-failed", message };
      }
      return { kind: "cont-sent" };
    }
    default:
      return null;
  }
}

/** The transfer after one observation of the node (unchanged when the node did not answer). */
export async function advanceWithNode(
  p: PendingTransfer,
  deps: AdvanceDeps,
): Promise<PendingTransfer> {
  const event = await observe(p, deps);
  return event === null ? p : advance(p, event);
}
