/**
 * The transfer form's one reducer and reading (renderer/src/features/wallet/transfer/
 * transferForm.ts), as the single-key Send form and the multi-signature transfer use it: what
 * each edit resets, "Max" and "Pick the chain", every field's problem and when it is shown,
 * the receiver read where the coins arrive, the signers of a multi-signature account, and the
 * plan signed only once every rule passes.
 */
import { describe, expect, it } from "vitest";
import type { AccountOnChain } from "../../renderer/src/features/wallet/accounts/accountDetails.ts";
import {
  newTransferForm,
  readTransferForm,
  type TransferFacts,
  type TransferFormAction,
  type TransferFormState,
  transferFormReducer,
  transferPlanOf,
  transferWhere,
} from "../../renderer/src/features/wallet/transfer/transferForm.ts";
import {
  DEFAULT_GAS_LIMIT,
  DEFAULT_TTL,
  MIN_GAS_PRICE,
} from "../../renderer/src/features/wallet/transfer/transferRules.ts";

const ONE = 10n ** 12n;
const KEY = "ab".repeat(32);
const OTHER = "cd".repeat(32);
const THIRD = "ef".repeat(32);
const SENDER = { account: `k:${"12".repeat(32)}`, publicKey: "12".repeat(32) };
const RECEIVER = `k:${KEY}`;
const STAMP = { nowSeconds: 1_700_000_000, nonce: "n-1" };

const absent = (account: string): AccountOnChain => ({ account, exists: false });
const present = (account: string, keys: string[], pred = "keys-all", balance = ONE) =>
  ({ account, exists: true, balance, guard: { kind: "keyset", keys, pred } }) as const;

const run = (state: TransferFormState, ...actions: TransferFormAction[]) =>
  actions.reduce(transferFormReducer, state);

const single = (...actions: TransferFormAction[]) =>
  run(newTransferForm("single", "key-1"), ...actions);

const singleFacts = (over: Partial<TransferFacts> = {}): TransferFacts => ({
  chains: [0, 1, 2, 3],
  chainsKnown: true,
  sender: SENDER,
  balance: 10n * ONE,
  receiverOn: present(RECEIVER, [KEY]),
  ...over,
});

describe("[renderer] transfer form: the reducer", () => {
  it("starts on chain 0 with the default gas; a multi-signature form on the account's first chain", () => {
    const s = newTransferForm("single", "key-1");
    expect(s).toMatchObject({ chainText: "0", targetText: null, gasLimitText: "2500" });
    expect(readTransferForm(s, singleFacts()).gasPrice).toEqual({ ok: true, value: MIN_GAS_PRICE });
    const m = newTransferForm("multisig", "w:x:keys-all");
    const where = transferWhere(m, {
      chains: [],
      chainsKnown: false,
      sender: { account: "w:x:keys-all", publicKey: "", chains: [3, 5] },
    });
    expect(where.chainShown).toBe("3");
  });

  it("asks for the guard's confirmation again after another receiver or key", () => {
    const confirmed = single(
      { type: "receiver", value: "bob" },
      { type: "confirmGuard", value: true },
    );
    expect(confirmed.confirmGuard).toBe(true);
    expect(run(confirmed, { type: "receiver", value: "bob2" }).confirmGuard).toBe(false);
    expect(run(confirmed, { type: "newKey", value: KEY }).confirmGuard).toBe(false);
  });

  it("resets a multi-signature form's signers and chain with another account, not a single one's", () => {
    const m = run(
      newTransferForm("multisig", "w:a"),
      { type: "chain", value: "4" },
      { type: "signers", value: [KEY] },
      { type: "from", value: "w:b" },
    );
    expect(m).toMatchObject({ from: "w:b", chainText: "", signers: null });
    expect(single({ type: "chain", value: "2" }, { type: "from", value: "key-2" }).chainText).toBe(
      "2",
    );
  });

  it("'Send another' clears the amount only", () => {
    const s = single({ type: "receiver", value: RECEIVER }, { type: "amount", value: "1" });
    expect(run(s, { type: "another" })).toEqual({ ...s, amountText: "" });
  });

  it("'Max' is the balance minus the most the gas can cost, and nothing without a balance", () => {
    expect(single({ type: "max", balance: ONE }).amountText).toBe("0.999975");
    expect(single({ type: "max", balance: null }).amountText).toBe("");
    expect(single({ type: "max", balance: undefined }).amountText).toBe("");
    const badGas = single({ type: "gasLimit", value: "x" }, { type: "max", balance: ONE });
    expect(badGas.amountText).toBe("");
  });

  it("'Pick the chain' takes the lowest chain that covers amount and gas, or says why not", () => {
    const balances = new Map<number, bigint | null>([
      [0, ONE],
      [1, null],
      [2, 5n * ONE],
      [3, 9n * ONE],
    ]);
    expect(single({ type: "pick", balances }).pickProblem).toBe("Enter the amount first.");
    const picked = single({ type: "amount", value: "3" }, { type: "pick", balances });
    expect(picked).toMatchObject({ chainText: "2", pickProblem: null });
    expect(single({ type: "amount", value: "30" }, { type: "pick", balances }).pickProblem).toBe(
      "No chain holds enough for this amount and its gas.",
    );
    expect(
      single(
        { type: "gasPrice", value: "0" },
        { type: "amount", value: "1" },
        { type: "pick", balances },
      ).pickProblem,
    ).toBe("Fix the gas settings first.");
  });
});

describe("[renderer] transfer form: reading it", () => {
  it("refuses a chain the network does not have, but not before the chains are known", () => {
    const s = single({ type: "chain", value: "7" });
    expect(readTransferForm(s, singleFacts()).chainProblem).toBe(
      "Enter a chain of this network (0 to 3).",
    );
    expect(readTransferForm(s, singleFacts({ chainsKnown: false })).chainProblem).toBeNull();
    expect(readTransferForm(single({ type: "chain", value: "" }), singleFacts()).chainProblem).toBe(
      "Enter a chain of this network (0 to 3).",
    );
  });

  it("lets the target chain follow the chain until one is typed; then reads the receiver there", () => {
    const f = singleFacts();
    const same = transferWhere(single({ type: "chain", value: "2" }), f);
    expect(same).toMatchObject({ targetShown: "2", crossChain: false, receiverChain: 2 });
    const cross = transferWhere(
      single(
        { type: "chain", value: "2" },
        { type: "target", value: "3" },
        { type: "receiver", value: RECEIVER },
      ),
      f,
    );
    expect(cross).toMatchObject({
      targetShown: "3",
      crossChain: true,
      receiverChain: 3,
      readReceiver: true,
    });
    const badTarget = transferWhere(
      single({ type: "target", value: "9" }, { type: "receiver", value: RECEIVER }),
      f,
    );
    expect(badTarget.readReceiver).toBe(false);
  });

  it("says the receiver's problems in turn, shown after Review unless the receiver is refused", () => {
    const read = (s: TransferFormState, on: AccountOnChain | undefined) =>
      readTransferForm(s, singleFacts({ receiverOn: on }));
    expect(read(single(), undefined).receiverProblem).toBe("Enter the receiving account.");
    expect(read(single(), undefined).receiverError).toBeNull();
    const bob = single({ type: "receiver", value: "bob" });
    expect(read(bob, undefined).receiverProblem).toBe("Reading the receiver on this chain…");
    expect(read(bob, absent("bob")).receiverProblem).toBe(
      "This account does not exist on this chain: give the public key that will guard it.",
    );
    const keyed = run(bob, { type: "newKey", value: KEY });
    expect(read(keyed, absent("bob")).receiverCheck).toEqual({
      kind: "create",
      guard: { keys: [KEY], pred: "keys-all" },
    });
    expect(read(keyed, absent("bob")).receiverProblem).toBe("Confirm the new account's guard.");
    expect(read(keyed, absent("bob")).receiverError).toBeNull();
    expect(read(run(keyed, { type: "review" }), absent("bob")).receiverError).toBe(
      "Confirm the new account's guard.",
    );
    expect(
      read(run(keyed, { type: "confirmGuard", value: true }), absent("bob")).receiverProblem,
    ).toBeNull();
    // A refusal is shown at once.
    const wrong = single({ type: "receiver", value: RECEIVER });
    expect(read(wrong, present(RECEIVER, [OTHER])).receiverError).toMatch(/not guarded by exactly/);
    // Sending to oneself on one chain is refused; to another chain it is a cross-chain move.
    const self = single({ type: "receiver", value: SENDER.account });
    const on = present(SENDER.account, [SENDER.publicKey]);
    expect(read(self, on).receiverProblem).toBe("The receiver is the sending account itself.");
    expect(read(run(self, { type: "target", value: "1" }), on).receiverProblem).toBeNull();
  });

  it("refuses a cross-chain transfer to a receiver whose guard is not a keyset", () => {
    const s = single({ type: "target", value: "1" }, { type: "receiver", value: "bob" });
    const v = readTransferForm(
      s,
      singleFacts({
        receiverOn: {
          account: "bob",
          exists: true,
          balance: ONE,
          guard: { kind: "other", json: "{}" },
        },
      }),
    );
    expect(v.receiverProblem).toBe(
      "The receiver's guard on chain 1 is not a keyset: the wallet cannot name it for a cross-chain transfer.",
    );
  });

  it("checks the amount against the balance and the gas, shown once typed", () => {
    const v = (text: string, balance: bigint | null | undefined) =>
      readTransferForm(single({ type: "amount", value: text }), singleFacts({ balance }));
    expect(v("", ONE).amountError).toBeNull();
    expect(v("2", ONE).amountError).toMatch(/more than the balance/);
    expect(v("1", ONE).amountError).toMatch(/and the gas/);
    expect(v("1", null).amountError).toBe("The sending account does not exist on this chain.");
    expect(v("0.5", ONE).amount).toEqual({ ok: true, value: ONE / 2n });
    expect(
      readTransferForm(single({ type: "gasLimit", value: "0" }), singleFacts()).amount,
    ).toBeNull();
  });
});

describe("[renderer] transfer form: the plan", () => {
  const ready = single({ type: "receiver", value: RECEIVER }, { type: "amount", value: "1.5" });

  it("is null until every rule passes", () => {
    expect(transferPlanOf(single(), singleFacts(), "development", STAMP)).toBeNull();
    expect(
      transferPlanOf(ready, singleFacts({ receiverOn: undefined }), "development", STAMP),
    ).toBeNull();
    expect(transferPlanOf(ready, singleFacts({ balance: ONE }), "development", STAMP)).toBeNull();
    expect(
      transferPlanOf(ready, singleFacts({ sender: undefined }), "development", STAMP),
    ).toBeNull();
    // A new account's guard is confirmed first.
    expect(
      transferPlanOf(ready, singleFacts({ receiverOn: absent(RECEIVER) }), "development", STAMP),
    ).toBeNull();
  });

  it("is a transfer on one chain, a little in the past, signed by the sender's key", () => {
    const r = transferPlanOf(ready, singleFacts(), "development", STAMP);
    expect(r?.plan).toEqual({
      networkId: "development",
      chainId: 0,
      sender: SENDER.account,
      signerPublicKey: SENDER.publicKey,
      receiver: RECEIVER,
      createGuard: null,
      amount: 3n * (ONE / 2n),
      gasLimit: DEFAULT_GAS_LIMIT,
      gasPrice: MIN_GAS_PRICE,
      ttl: DEFAULT_TTL,
      creationTime: STAMP.nowSeconds - 15,
      nonce: STAMP.nonce,
    });
  });

  it("names the new account's guard, and a cross-chain transfer the receiver's", () => {
    const create = transferPlanOf(
      run(ready, { type: "confirmGuard", value: true }),
      singleFacts({ receiverOn: absent(RECEIVER) }),
      "development",
      STAMP,
    );
    expect(create?.plan.createGuard).toEqual({ keys: [KEY], pred: "keys-all" });
    const cross = transferPlanOf(
      run(ready, { type: "target", value: "2" }),
      singleFacts(),
      "development",
      STAMP,
    );
    expect(cross?.plan).toMatchObject({
      chainId: 0,
      targetChainId: 2,
      createGuard: { keys: [KEY], pred: "keys-all" },
    });
  });
});

describe("[renderer] transfer form: a multi-signature account", () => {
  const ACCOUNT = "w:abc:keys-2";
  const sender = {
    account: ACCOUNT,
    publicKey: "",
    keyset: { keys: [KEY, OTHER, THIRD], pred: "keys-2" },
    chains: [1],
  };
  const facts = (over: Partial<TransferFacts> = {}): TransferFacts => ({
    chains: [],
    chainsKnown: false,
    sender,
    senderOn: present(ACCOUNT, [KEY, OTHER, THIRD], "keys-2", 5n * ONE),
    balance: 5n * ONE,
    receiverOn: present(RECEIVER, [KEY]),
    heldKeys: [THIRD],
    ...over,
  });
  const form = (...actions: TransferFormAction[]) =>
    run(newTransferForm("multisig", ACCOUNT), ...actions);

  it("says when the account is not on the chain", () => {
    const v = readTransferForm(form(), facts({ senderOn: absent(ACCOUNT), balance: null }));
    expect(v.chainProblem).toBe(`${ACCOUNT} does not exist on chain 1.`);
    expect(readTransferForm(form({ type: "chain", value: "x" }), facts()).chainProblem).toBe(
      "Enter a chain.",
    );
  });

  it("chooses the keys held here first, as many as the predicate needs, and checks a choice", () => {
    const v = readTransferForm(form(), facts());
    expect(v.signers).toEqual([THIRD, KEY]);
    expect(v.signerCheck).toEqual({ ok: true, value: [KEY, THIRD] });
    const one = readTransferForm(form({ type: "signers", value: [OTHER] }), facts());
    expect(one.signerCheck).toEqual({ ok: false, error: "Choose at least 2 signers." });
    // The guard on chain is the truth; the kept keys stand in until it is read.
    const kept = readTransferForm(form(), facts({ senderOn: undefined }));
    expect(kept.guard).toEqual({ kind: "keyset", keys: [KEY, OTHER, THIRD], pred: "keys-2" });
  });

  it("never creates a plain-named account, and creates a k: one without a confirmation", () => {
    const plain = readTransferForm(
      form({ type: "receiver", value: "bob" }),
      facts({ receiverOn: absent("bob") }),
    );
    expect(plain.receiverProblem).toBe(
      "This account does not exist on this chain: send to a k: account or an existing one.",
    );
    const k = form({ type: "receiver", value: RECEIVER }, { type: "amount", value: "1" });
    const r = transferPlanOf(k, facts({ receiverOn: absent(RECEIVER) }), "development", STAMP);
    expect(r?.plan).toMatchObject({
      chainId: 1,
      sender: ACCOUNT,
      signerPublicKey: KEY,
      createGuard: { keys: [KEY], pred: "keys-all" },
      gasLimit: DEFAULT_GAS_LIMIT,
      gasPrice: MIN_GAS_PRICE,
    });
    expect(r?.signers).toEqual([KEY, THIRD]);
    expect(r?.plan.targetChainId).toBeUndefined();
  });

  it("has no plan while the signers do not meet the predicate", () => {
    const k = form(
      { type: "receiver", value: RECEIVER },
      { type: "amount", value: "1" },
      { type: "signers", value: [KEY] },
    );
    expect(transferPlanOf(k, facts(), "development", STAMP)).toBeNull();
  });
});
