/**
 * The wallet's plain logic. For now: what kind of account a name is. Principal accounts
 * carry their guard in the name (`k:` one key, `w:` several keys, `r:` a registered keyset,
 * `u:` a user guard, `m:` a module guard, `p:` a pact, `c:` a capability); any other name
 * is a plain ("vanity") account whose guard is stored on chain.
 * @module
 */

export type AccountKind =
  | { readonly kind: "single-key"; readonly publicKey: string }
  | { readonly kind: "principal"; readonly prefix: string; readonly description: string }
  | { readonly kind: "vanity" };

const PRINCIPALS: Record<string, string> = {
  "w:": "a multi-key account (w:)",
  "r:": "a keyset reference account (r:)",
  "u:": "a user-guard account (u:)",
  "m:": "a module-guard account (m:)",
  "p:": "a pact account (p:)",
  "c:": "a capability-guard account (c:)",
};

export function accountKind(name: string): AccountKind {
  const k = /^k:([0-9a-f]{64})$/.exec(name);
  if (k?.[1] !== undefined) return { kind: "single-key", publicKey: k[1] };
  const prefix = name.slice(0, 2);
  const description = PRINCIPALS[prefix];
  if (description !== undefined && name.length > 2) {
    return { kind: "principal", prefix, description };
  }
  return { kind: "vanity" };
}

/** One sentence about the account's kind, for the account page. */
export function describeAccountKind(kind: AccountKind): string {
  switch (kind.kind) {
    case "single-key":
      return "A single-key account (k:): the public key in its name guards it.";
    case "principal":
      return `This is ${kind.description}: its guard is derived from its name.`;
    case "vanity":
      return "A plain account name: its guard is the keyset stored with it on each chain.";
    default: {
      const never: never = kind;
      return never;
    }
  }
}
