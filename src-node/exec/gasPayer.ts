/**
 * Gas payers (reference pact-language.md §8.2; chainweb's `findPayer` and
 * `enrichedMsgBody`): when a signer scopes a signature to a capability
 * named `GAS_PAYER`, the node acquires it around buying gas (if its module
 * implements `gas-payer-v1`, which the contract area checks), so a gas
 * station's account guard can let the station pay. Its defcap sees message
 * data describing the transaction instead of the transaction's own data:
 *
 * - exec: `tx-type` `"exec"`, `exec-code` (the code's top-level forms as
 *   compact text), `exec-user-data` (the data, `{}` for none);
 * - cont: `tx-type` `"cont"`, `cont-pact-id`, `cont-step` (integer),
 *   `cont-is-rollback`, `cont-user-data`, `cont-has-proof`.
 *
 * Which capability: the reference keeps signers in a map by key (the last
 * signer of a key wins) and each signer's capabilities in a set, and takes
 * the first `GAS_PAYER` it meets; here signers are taken in key order and a
 * signer's `GAS_PAYER` capabilities in module-name order (namespace-less
 * first), then list order.
 * @module
 */
import { type SigCapability, type Signer, signersByKey } from "../contract/eval/runtimeContext.ts";
import type { GasPayer } from "../contract/execute.ts";
import { compactForms } from "../contract/syntax/compactForms.ts";
import { makeObject, type PactValue, pString } from "../contract/values/value.ts";
import type { ContractInput } from "./contractInput.ts";

const PAYER_CAP = "GAS_PAYER";

/** `ns.mod.GAS_PAYER` → `["mod", "ns"]`, `mod.GAS_PAYER` → `["mod", ""]`; null for other names. */
function payerModule(c: SigCapability): readonly [string, string] | null {
  const parts = c.name.split(".");
  if (parts[parts.length - 1] !== PAYER_CAP) return null;
  if (parts.length === 2) return [parts[0] as string, ""];
  if (parts.length === 3) return [parts[1] as string, parts[0] as string];
  return null;
}

function hasPayerCap(s: Signer): boolean {
  for (const c of s.caps) if (c.name.endsWith(PAYER_CAP)) return true;
  return false;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The `GAS_PAYER` capability the node acquires for these signers, or null. */
export function gasPayerCapOf(signers: readonly Signer[]): SigCapability | null {
  if (!signers.some(hasPayerCap)) return null;
  const byKey = signersByKey(signers);
  for (const key of [...byKey.keys()].sort(compare)) {
    const found = (byKey.get(key)?.caps ?? [])
      .map((cap, i) => ({ cap, i, m: payerModule(cap) }))
      .filter((x) => x.m !== null)
      .sort((x, y) => {
        const [xm, xns] = x.m as readonly [string, string];
        const [ym, yns] = y.m as readonly [string, string];
        return compare(xm, ym) || compare(xns, yns) || x.i - y.i;
      });
    const first = found[0];
    if (first !== undefined) return first.cap;
  }
  return null;
}

/** The message data a gas payer's defcap sees for this transaction. */
export function gasPayerData(input: ContractInput): PactValue {
  const p = input.payload;
  if (p.kind === "exec") {
    let forms: string[];
    try {
      forms = compactForms(p.code);
    } catch {
      // Code that does not even lex: the payload fails later; the payer sees no forms.
      forms = [];
    }
    return makeObject([
      ["tx-type", pString("exec")],
      ["exec-code", { kind: "list", items: forms.map(pString) }],
      ["exec-user-data", input.data],
    ]);
  }
  return makeObject([
    ["tx-type", pString("cont")],
    ["cont-pact-id", pString(p.pactId)],
    ["cont-step", { kind: "integer", value: BigInt(p.step) }],
    ["cont-is-rollback", { kind: "bool", value: p.rollback }],
    ["cont-user-data", input.data],
    ["cont-has-proof", { kind: "bool", value: p.proof !== null }],
  ]);
}

/** The gas payer of a command's purchase of gas, or null (the sender pays alone). */
export function gasPayerOf(input: ContractInput): GasPayer | null {
  const cap = gasPayerCapOf(input.signers);
  return cap === null ? null : { cap, data: gasPayerData(input) };
}
