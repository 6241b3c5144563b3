/**
 * Checking SPV proofs on the chain that uses them (reference chainweb-api.md
 * §9.2), the verifier execution injects into the contract language:
 *
 * 1. the proof decodes (base64url JSON, algorithm SHA512t_256);
 * 2. its `chain` is the executing chain;
 * 3. running it gives a block hash R that is an ancestor-or-self of the
 *    parent of the block being built or validated, at most `maxDepth`
 *    blocks below it (proofs expire);
 * 4. its subject is a transaction output (tag 0x0014) whose command result
 *    has a `continuation` (for a cross-chain continuation), or a successful
 *    result with an object (for `verify-spv "TXOUT"`).
 *
 * Provenance (the yield's target chain and module hash), the step and
 * replays are the contract language's checks (eval/defpacts.ts). Everything
 * here depends only on the parent's history, so validation is deterministic.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import { MerkleTag } from "../chain/merkleTags.ts";
import { decodeSpvProof, runSpvProof, type SpvProof } from "../chain/spvProof.ts";
import type { SpvResult, SpvSupport } from "../contract/eval/runtimeContext.ts";
import type { PactExec } from "../contract/storage/pactExec.ts";
import { pactExecFromJson } from "../contract/storage/pactExec.ts";
import {
  isJsonObject,
  type JsonValue,
  pactValueFromJson,
  parseJsonExact,
} from "../contract/values/json.ts";
import type { PactValue } from "../contract/values/value.ts";
import { base64UrlEncodeText } from "../encoding/base64url.ts";
import type { Hash32 } from "../encoding/hash32.ts";

/** How many blocks below the parent a proof's root may be (the reference's 20,000, ~7 days). */
export const DEFAULT_SPV_PROOF_DEPTH = 20_000;

/** What verification reads of the block database. */
export type SpvHeaderSource = {
  header(hash: Hash32): BlockHeader | undefined;
  ancestorAt(header: BlockHeader, height: number): BlockHeader | undefined;
};

export type SpvVerifierContext = {
  readonly blocks: SpvHeaderSource;
  /** The executing chain. */
  readonly chainId: number;
  /** The parent of the block being built or validated (or /local's block). */
  readonly parent: BlockHeader;
  readonly maxDepth: number;
};

type Obj = { readonly [k: string]: JsonValue };

function fail<T>(message: string): SpvResult<T> {
  return { ok: false, error: message };
}

/**
 * Checks a decoded proof against the chain and returns the proven command
 * result (parsed JSON object).
 */
function provenResult(ctx: SpvVerifierContext, proof: SpvProof): SpvResult<Obj> {
  if (proof.chain !== ctx.chainId)
    return fail(
      `cannot redeem continuation proof on wrong target chain (the proof is for chain ${proof.chain}, this is chain ${ctx.chainId})`,
    );
  const root = runSpvProof(proof);
  const h = ctx.blocks.header(root);
  const lowest = ctx.parent.height - ctx.maxDepth;
  const inChain =
    h !== undefined &&
    h.chainId === ctx.chainId &&
    h.height <= ctx.parent.height &&
    ctx.blocks.ancestorAt(ctx.parent, h.height)?.hash === root;
  if (!inChain)
    return fail(
      `target header is not in the chain or is out of bounds (the proof's root ${root} is not a block of this chain's history at height ${ctx.parent.height})`,
    );
  if (h.height < lowest)
    return fail(
      `target header is not in the chain or is out of bounds (the proof's root is at height ${h.height}, more than ${ctx.maxDepth} blocks below ${ctx.parent.height}: the proof has expired)`,
    );
  const s = proof.subject;
  if (s.length < 2 || ((s[0] as number) << 8) + (s[1] as number) !== MerkleTag.transactionOutput)
    return fail("the proof's subject is not a transaction output");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(s.subarray(2));
  } catch {
    return fail("the proven transaction output is not UTF-8 text");
  }
  const json = parseJsonExact(text);
  if (!isJsonObject(json)) return fail("the proven transaction output is not a command result");
  return { ok: true, value: json };
}

function decoded(proofText: string): SpvResult<SpvProof> {
  try {
    return { ok: true, value: decodeSpvProof(proofText) };
  } catch (e) {
    return fail(
      `Cannot decode transaction output proof: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

/** A cross-chain continuation's proof → the defpact state the source chain left. */
export function verifyContinuationProof(
  ctx: SpvVerifierContext,
  proofText: string,
): SpvResult<PactExec> {
  const proof = decoded(proofText);
  if (!proof.ok) return proof;
  const r = provenResult(ctx, proof.value);
  if (!r.ok) return r;
  const c = r.value.continuation;
  const exec = isJsonObject(c) ? pactExecFromJson(c) : null;
  if (exec === null) return fail("No pact exec found in command result");
  return { ok: true, value: exec };
}

/** A Pact object holding a proof (`{chain, object, subject: {input}, algorithm}`) → its text. */
function proofTextOfObject(payload: PactValue): string | null {
  if (payload.kind !== "object") return null;
  const get = (k: string) => payload.fields.get(k);
  const chain = get("chain");
  const object = get("object");
  const subject = get("subject");
  const algorithm = get("algorithm");
  const input = subject?.kind === "object" ? subject.fields.get("input") : undefined;
  const chainNumber =
    chain?.kind === "integer"
      ? Number(chain.value)
      : chain?.kind === "string" && /^[0-9]{1,9}$/.test(chain.value)
        ? Number(chain.value)
        : null;
  if (
    chainNumber === null ||
    object?.kind !== "string" ||
    input?.kind !== "string" ||
    algorithm?.kind !== "string"
  )
    return null;
  return base64UrlEncodeText(
    JSON.stringify({
      chain: chainNumber,
      object: object.value,
      subject: { input: input.value },
      algorithm: algorithm.value,
    }),
  );
}

/**
 * `verify-spv "TXOUT" proof-object`: the proven command result must be a
 * success whose data is an object; that object is the answer.
 */
export function verifyTxOutProof(
  ctx: SpvVerifierContext,
  type: string,
  payload: PactValue,
): SpvResult<PactValue> {
  if (type !== "TXOUT") return fail(`unsupported SPV type ${type} (this node verifies TXOUT)`);
  const text = proofTextOfObject(payload);
  if (text === null)
    return fail(
      "Cannot decode transaction output proof: expected {chain, object, subject: {input}, algorithm}",
    );
  const proof = decoded(text);
  if (!proof.ok) return proof;
  const r = provenResult(ctx, proof.value);
  if (!r.ok) return r;
  const result = r.value.result;
  if (!isJsonObject(result) || result.status !== "success") return fail("Failed command result");
  const data = result.data;
  const v = data === undefined ? null : pactValueFromJson(data);
  if (v === null || !v.ok || v.value.kind !== "object")
    return fail("the proven command result's data is not an object");
  return { ok: true, value: v.value };
}

/**
 * A class, not an object of arrow functions: one is made per block and per
 * /local call, and tsx names every function such an object literal creates,
 * which cost more than the rest of a small /local call.
 */
class ChainSpv implements SpvSupport {
  readonly #ctx: SpvVerifierContext;

  constructor(ctx: SpvVerifierContext) {
    this.#ctx = ctx;
  }

  verify(type: string, payload: PactValue): SpvResult<PactValue> {
    return verifyTxOutProof(this.#ctx, type, payload);
  }

  verifyContinuation(proof: string): SpvResult<PactExec> {
    return verifyContinuationProof(this.#ctx, proof);
  }
}

/** The verifier for commands of a block on `ctx.parent`. */
export function spvVerifier(ctx: SpvVerifierContext): SpvSupport {
  return new ChainSpv(ctx);
}
