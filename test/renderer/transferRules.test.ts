/**
 * The transfer form's rules (renderer/src/features/wallet/transfer/transferRules.ts) and the
 * wallet home's balance table: k: receivers must be guarded by their own key, missing
 * receivers are created with a confirmed guard, amounts beyond the balance (gas included)
 * are refused before signing, gas settings are bounded, "pick the chain with enough funds"
 * takes the lowest chain that covers amount and gas, and totals are exact sums.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AccountOnChain } from "../../renderer/src/features/wallet/accounts/accountDetails.ts";
import { balanceTable } from "../../renderer/src/features/wallet/accounts/balanceTable.ts";
import {
  checkAmount,
  checkGasLimit,
  checkGasPrice,
  checkReceiver,
  MIN_GAS_PRICE,
  pickChain,
} from "../../renderer/src/features/wallet/transfer/transferRules.ts";

const ONE = 10n ** 12n;
const KEY = "ab".repeat(32);
const OTHER = "cd".repeat(32);
const SENDER = `k:${"ef".repeat(32)}`;
const absent = (account: string): AccountOnChain => ({ account, exists: false });
const present = (account: string, keys: string[], pred = "keys-all"): AccountOnChain => ({
  account,
  exists: true,
  balance: ONE,
  guard: { kind: "keyset", keys, pred },
});

describe("[renderer] transfer rules", () => {
  it("sends to a k: account guarded by its own key, refuses one guarded otherwise", () => {
    const r = `k:${KEY}`;
    expect(checkReceiver(SENDER, r, present(r, [KEY]), "").kind).toBe("transfer");
    for (const on of [
      present(r, [OTHER]),
      present(r, [KEY, OTHER]),
      present(r, [KEY], "keys-any"),
    ]) {
      expect(checkReceiver(SENDER, r, on, "")).toMatchObject({
        kind: "refused",
        message: expect.stringMatching(/not guarded by exactly the key in its name/),
      });
    }
    const other = {
      account: r,
      exists: true as const,
      balance: 0n,
      guard: { kind: "other" as const, json: "{}" },
    };
    expect(checkReceiver(SENDER, r, other, "").kind).toBe("refused");
  });

  it("creates a missing k: account guarded by its key, and asks the key of a missing plain name", () => {
    expect(checkReceiver(SENDER, `k:${KEY}`, absent(`k:${KEY}`), "")).toEqual({
      kind: "create",
      guard: { keys: [KEY], pred: "keys-all" },
    });
    expect(checkReceiver(SENDER, "alice", absent("alice"), "").kind).toBe("needs-key");
    expect(checkReceiver(SENDER, "alice", absent("alice"), "xyz").kind).toBe("refused");
    expect(checkReceiver(SENDER, "alice", absent("alice"), ` ${OTHER.toUpperCase()} `)).toEqual({
      kind: "create",
      guard: { keys: [OTHER], pred: "keys-all" },
    });
    expect(
      checkReceiver(SENDER, "alice", present("alice", [OTHER, KEY], "keys-any"), "").kind,
    ).toBe("transfer");
    // Other principals are not created by the wallet.
    expect(checkReceiver(SENDER, `w:${KEY}`, absent(`w:${KEY}`), KEY).kind).toBe("refused");
  });

  it("refuses malformed k: names, bad names and the sender itself", () => {
    for (const bad of [`k:${KEY.toUpperCase()}`, `k:${KEY}0`, "k:abc", "ab", SENDER]) {
      expect(checkReceiver(SENDER, bad, absent(bad), "").kind, bad).toBe("refused");
    }
  });

  it("refuses amounts that are not positive, too precise, or beyond the balance with the gas", () => {
    const price = MIN_GAS_PRICE;
    expect(checkAmount("1.5", 10n * ONE, 2500, price)).toEqual({
      ok: true,
      value: (3n * ONE) / 2n,
    });
    expect(checkAmount("", ONE, 2500, price).ok).toBe(false);
    expect(checkAmount("0", ONE, 2500, price).ok).toBe(false);
    expect(checkAmount("0.0000000000001", ONE, 2500, price).ok).toBe(false);
    expect(checkAmount("1", null, 2500, price)).toMatchObject({
      ok: false,
      error: /does not exist/,
    });
    expect(checkAmount("2", ONE, 2500, price)).toMatchObject({
      ok: false,
      error: /more than the balance/,
    });
    // Exactly the balance: the gas would not be covered.
    expect(checkAmount("1", ONE, 2500, price)).toMatchObject({ ok: false, error: /Max/ });
    expect(checkAmount("0.999975", ONE, 2500, price).ok).toBe(true);
    expect(checkAmount("0.9999750000001", ONE, 2500, price).ok).toBe(false);
    // As shown: "1,500" is one thousand five hundred; "1,5" is refused, never read as 1.5.
    expect(checkAmount("1,500", 2000n * ONE, 2500, price)).toEqual({
      ok: true,
      value: 1500n * ONE,
    });
    expect(checkAmount("1,5", 2000n * ONE, 2500, price)).toMatchObject({
      ok: false,
      error: /comma only separates thousands/,
    });
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        fc.integer({ min: 1, max: 150_000 }),
        (amount, balance, gas) => {
          const text = `${amount / ONE}.${(amount % ONE).toString().padStart(12, "0")}`;
          const r = checkAmount(text, balance, gas, price);
          expect(r.ok).toBe(amount + BigInt(gas) * price <= balance);
        },
      ),
    );
  });

  it("bounds the gas limit and price", () => {
    expect(checkGasLimit("2500")).toEqual({ ok: true, value: 2500 });
    expect(checkGasLimit("150,000")).toEqual({ ok: true, value: 150_000 });
    for (const bad of ["0", "150001", "1.5", "", "-1", "abc"])
      expect(checkGasLimit(bad).ok, bad).toBe(false);
    expect(checkGasPrice("0.00000001")).toEqual({ ok: true, value: MIN_GAS_PRICE });
    expect(checkGasPrice("0.000000001").ok).toBe(false);
    expect(checkGasPrice("x").ok).toBe(false);
    expect(checkGasPrice("0,00000001").ok).toBe(false);
  });

  it("picks the lowest chain that covers the amount and the gas", () => {
    const balances = new Map<number, bigint | null>([
      [0, ONE],
      [1, null],
      [2, 5n * ONE],
      [3, 9n * ONE],
    ]);
    expect(pickChain(balances, 2n * ONE, 2500, MIN_GAS_PRICE)).toBe(2);
    expect(pickChain(balances, ONE / 2n, 2500, MIN_GAS_PRICE)).toBe(0);
    expect(pickChain(balances, 5n * ONE, 2500, MIN_GAS_PRICE)).toBe(3);
    expect(pickChain(balances, 9n * ONE, 2500, MIN_GAS_PRICE)).toBe(null);
  });
});

describe("[renderer] wallet balance table", () => {
  it("sums exactly, marks missing accounts and chains not read yet", () => {
    const big = 123456789123456789012n;
    const rows = balanceTable(
      ["a1", "a2"],
      [
        {
          chainId: 0,
          accounts: [
            { account: "a1", exists: true, balance: big, guard: { kind: "other", json: "{}" } },
            absent("a2"),
          ],
        },
        {
          chainId: 1,
          accounts: [
            { account: "a1", exists: true, balance: 1n, guard: { kind: "other", json: "{}" } },
            absent("a2"),
          ],
        },
        { chainId: 2, accounts: undefined },
      ],
    );
    expect(rows[0]).toMatchObject({ account: "a1", total: big + 1n, complete: false });
    expect([...(rows[0]?.byChain.entries() ?? [])]).toEqual([
      [0, big],
      [1, 1n],
      [2, undefined],
    ]);
    expect(rows[1]).toMatchObject({ account: "a2", total: 0n, complete: false });
    expect(rows[1]?.byChain.get(0)).toBe(null);
  });
});
