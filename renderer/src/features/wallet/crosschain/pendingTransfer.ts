/**
 * A pending cross-chain transfer and its state machine, pure (no I/O, no clock): what the
 * wallet persists in `wallet/pending.json` and what each observation of the node moves it
 * to. States, as the user reads them: "Sent on chain A" (step 1 sent, no result yet),
 * "Waiting for the proof" (step 1 succeeded; `/spv` asked), "Finishing on chain B" (the
 * continuation built, sent, waiting for its result), "Done", "Needs attention" (a reason and
 * Retry). Every failure the node can answer is turned into one of these, never a raw error:
 * a continuation that was already finished (by this wallet or anyone) is Done; an expired
 * proof, a failed step 1 or a refused continuation need attention with a reason. The
 * transfer's shape is the file's (`src-node/walletFiles/pendingFile.ts`).
 * @module
 */
import type {
  PendingTransfer,
  Phase,
  StoredCommand,
} from "../../../../../src-node/walletFiles/pendingFile.ts";

/** What the driver observed at one step. */
export type PendingEvent =
  | { readonly kind: "step1-pending" }
  | { readonly kind: "step1-failed"; readonly message: string }
  | { readonly kind: "step1-succeeded" }
  | { readonly kind: "step1-not-crosschain" }
  | { readonly kind: "proof-waiting" }
  | { readonly kind: "proof-failed"; readonly message: string }
  | { readonly kind: "proof"; readonly continuation: StoredCommand }
  | { readonly kind: "cont-sent" }
  | { readonly kind: "cont-send-failed"; readonly message: string }
  | { readonly kind: "cont-pending" }
  | { readonly kind: "cont-succeeded" }
  | { readonly kind: "cont-failed"; readonly message: string }
  | { readonly kind: "retry" };

export function newPending(
  init: Pick<
    PendingTransfer,
    "requestKey" | "sourceChain" | "targetChain" | "sender" | "receiver" | "amount" | "createdAt"
  >,
): PendingTransfer {
  return {
    ...init,
    phase: "sent",
    reason: null,
    retryPhase: null,
    continuation: null,
    continuationSent: false,
  };
}

/** Whether the driver still has work on it. */
export function isActive(p: PendingTransfer): boolean {
  return p.phase === "sent" || p.phase === "proof" || p.phase === "finishing";
}

const attention = (p: PendingTransfer, reason: string, retryPhase: Phase): PendingTransfer => ({
  ...p,
  phase: "attention",
  reason,
  retryPhase,
});

/** A continuation failure the user can act on, or that means "finished already". */
export function classifyContinuationFailure(
  message: string,
): { readonly kind: "finished" } | { readonly kind: "expired" } | { readonly kind: "other" } {
  if (/pact completed|already completed|already finished/i.test(message)) {
    return { kind: "finished" };
  }
  if (/expired|out of bounds/i.test(message)) return { kind: "expired" };
  return { kind: "other" };
}

/** `/send` refusing a command that is already in a block: not a failure, poll it. */
export function isAlreadyOnChain(message: string): boolean {
  return /already (on chain|in a block|mined|exists)|duplicate/i.test(message);
}

/** The next state after `event`. Unexpected events for a phase leave it unchanged. */
export function advance(p: PendingTransfer, event: PendingEvent): PendingTransfer {
  if (event.kind === "retry") {
    if (p.phase !== "attention" || p.retryPhase === null) return p;
    // A new proof is asked for after a refused or expired continuation.
    const back = p.retryPhase;
    return {
      ...p,
      phase: back,
      reason: null,
      retryPhase: null,
      continuation: back === "finishing" ? p.continuation : null,
      continuationSent: back === "finishing" ? p.continuationSent : false,
    };
  }
  switch (p.phase) {
    case "sent":
      if (event.kind === "step1-pending") return p;
      if (event.kind === "step1-succeeded") return { ...p, phase: "proof", reason: null };
      if (event.kind === "step1-failed") {
        return attention(
          p,
          `Step 1 failed on chain ${p.sourceChain}: ${event.message}. No coins left the account except the gas.`,
          "sent",
        );
      }
      if (event.kind === "step1-not-crosschain") {
        return attention(
          p,
          `The transaction on chain ${p.sourceChain} is not the first step of a cross-chain transfer.`,
          "sent",
        );
      }
      return p;
    case "proof":
      if (event.kind === "proof-waiting") return p;
      if (event.kind === "proof") {
        return {
          ...p,
          phase: "finishing",
          continuation: event.continuation,
          continuationSent: false,
        };
      }
      if (event.kind === "proof-failed") {
        return attention(p, `The node could not give the proof: ${event.message}`, "proof");
      }
      return p;
    case "finishing":
      if (event.kind === "cont-pending") return p;
      if (event.kind === "cont-sent") return { ...p, continuationSent: true };
      if (event.kind === "cont-succeeded") return { ...p, phase: "done", reason: null };
      if (event.kind === "cont-failed" || event.kind === "cont-send-failed") {
        const c = classifyContinuationFailure(event.message);
        if (c.kind === "finished") {
          return {
            ...p,
            phase: "done",
            reason: `Already finished on chain ${p.targetChain} by another continuation.`,
          };
        }
        if (c.kind === "expired") {
          return attention(
            p,
            `The proof has expired on chain ${p.targetChain}; Retry asks for a new one.`,
            "proof",
          );
        }
        if (event.kind === "cont-send-failed" && isAlreadyOnChain(event.message)) {
          return { ...p, continuationSent: true };
        }
        return attention(
          p,
          `Chain ${p.targetChain} refused the second step: ${event.message}`,
          event.kind === "cont-failed" ? "proof" : "finishing",
        );
      }
      return p;
    default:
      return p;
  }
}

/** The state in words, as the page shows it. */
export function stateText(p: PendingTransfer): string {
  switch (p.phase) {
    case "sent":
      return `Sent on chain ${p.sourceChain}`;
    case "proof":
      return "Waiting for the proof";
    case "finishing":
      return `Finishing on chain ${p.targetChain}`;
    case "done":
      return p.reason === null ? "Done" : `Done (${p.reason})`;
    case "attention":
      return `Needs attention: ${p.reason ?? "unknown"}`;
    default: {
      const never: never = p.phase;
      return String(never);
    }
  }
}
