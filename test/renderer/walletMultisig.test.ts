/**
 * Multi-signature accounts (docs/wallet.md "Multi-signature accounts"): keys typed or pasted
 * read strictly, the keyset built and checked for its predicate, the `w:` name equal to the
 * node's `create-principal`, the signers a transfer needs, the chains typed; and against a real
 * node (test-singleton through `inject()`): a 2-of-2 (keys-all) account created by
 * `coin.create-account` paid by sender00, funded, and a transfer from it signed by both keys
 * through the SigData round trip (as two wallets do) sent and confirmed, the history entry
 * following it to "succeeded" with its fee; the same transfer with one signer is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FetchLike } from "../../renderer/src/api/nodeClient.ts";
import { createNodeClient } from "../../renderer/src/api/nodeClient.ts";
import { createPactClient, type PactClient } from "../../renderer/src/api/pactClient.ts";
import { readAccounts } from "../../renderer/src/features/wallet/accounts/readAccounts.ts";
import { commandFacts } from "../../renderer/src/features/wallet/history/commandFacts.ts";
import { newHistoryEntry } from "../../renderer/src/features/wallet/history/historyModel.ts";
import { pollHistory } from "../../renderer/src/features/wallet/history/pollHistory.ts";
import {
  buildKeyset,
  checkSigners,
  createAccountCode,
  createAccountPayload,
  multisigAccountName,
  multisigTransferPayload,
  parseChains,
  parsePublicKeys,
  requiredSignatures,
} from "../../renderer/src/features/wallet/multisig/multisigAccount.ts";
import {
  commandOf,
  isComplete,
  parseSignRequest,
  serializeSignRequest,
  unsignedSigData,
  withSignature,
} from "../../renderer/src/features/wallet/sign/signRequest.ts";
import {
  type TransferPlan,
  transferPayload,
} from "../../renderer/src/features/wallet/transfer/transferCommand.ts";
import { COIN_DECIMALS, formatAmount } from "../../renderer/src/format/amount.ts";
import { commandModel } from "../../src-node/command/commandModel.ts";
import { principalOf } from "../../src-node/contract/natives/principals.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import { mineOn } from "../support/nodeMining.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const A = "a1".repeat(32);
const B = "b2".repeat(32);
const C = "c3".repeat(32);

describe("[renderer] multi-signature keysets", () => {
  it("reads keys typed or pasted: hex or k: accounts, any separator, duplicates dropped", () => {
    expect(parsePublicKeys(`${A.toUpperCase()}, k:${B}\n${A} ;${C}`)).toEqual({
      ok: true,
      value: [A, B, C],
    });
    expect(parsePublicKeys("  ")).toEqual({ ok: true, value: [] });
    const bad = parsePublicKeys(`${A} ${"ab".repeat(31)}`);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toContain("is not a public key");
    expect(parsePublicKeys("k:xyz").ok).toBe(false);
  });

  it("builds the keyset sorted and unique from typed and own keys, 2 to 10 keys", () => {
    expect(buildKeyset([C, A], [B, A], "keys-2")).toEqual({
      ok: true,
      value: { keys: [A, B, C], pred: "keys-2" },
    });
    const one = buildKeyset([A], [A], "keys-all");
    expect(one.ok).toBe(false);
    if (!one.ok) expect(one.error).toContain("at least 2 keys");
    const many = Array.from({ length: 11 }, (_, i) => i.toString(16).padStart(2, "0").repeat(32));
    const tooMany = buildKeyset(many, [], "keys-any");
    expect(tooMany.ok).toBe(false);
    if (!tooMany.ok) expect(tooMany.error).toContain("At most 10");
  });

  it("names the account with the w: principal the contract language gives the keyset", () => {
    for (const pred of ["keys-all", "keys-any", "keys-2"] as const) {
      const guard = { keys: [A, B, C], pred };
      expect(multisigAccountName(guard)).toBe(principalOf({ kind: "keyset", ...guard }));
    }
    // The order the keys were typed in does not change the name.
    expect(multisigAccountName({ keys: [C, A], pred: "keys-all" })).toBe(
      multisigAccountName({ keys: [A, C], pred: "keys-all" }),
    );
    expect(multisigAccountName({ keys: [A, C], pred: "keys-all" })).toMatch(
      /^w:[A-Za-z0-9_-]{43}:keys-all$/,
    );
  });

  it("asks for as many signers as the predicate needs, of the account's keys only", () => {
    const all = { keys: [A, B, C], pred: "keys-all" };
    const two = { keys: [A, B, C], pred: "keys-2" };
    const any = { keys: [A, B, C], pred: "keys-any" };
    expect([all, two, any].map(requiredSignatures)).toEqual([3, 2, 1]);
    expect(checkSigners(all, [C, A, B])).toEqual({ ok: true, value: [A, B, C] });
    expect(checkSigners(all, [A, B])).toEqual({
      ok: false,
      error: "Every key of a keys-all account must sign.",
    });
    expect(checkSigners(two, [C, A])).toEqual({ ok: true, value: [A, C] });
    expect(checkSigners(two, [B])).toEqual({ ok: false, error: "Choose at least 2 signers." });
    expect(checkSigners(any, [B])).toEqual({ ok: true, value: [B] });
    expect(checkSigners(any, [])).toEqual({ ok: false, error: "Choose at least 1 signer." });
    const foreign = checkSigners(any, ["dd".repeat(32)]);
    expect(foreign.ok).toBe(false);
  });

  it("reads the chains typed: a list or all, each a chain of the network", () => {
    const chains = [0, 1, 2, 3];
    expect(parseChains("3, 0 3", chains)).toEqual({ ok: true, value: [0, 3] });
    expect(parseChains("all", [3, 1, 0, 2])).toEqual({ ok: true, value: [0, 1, 2, 3] });
    expect(parseChains("", chains).ok).toBe(false);
    const bad = parseChains("0, 20", chains);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toBe("20 is not a chain of this network (0 to 3).");
  });

  it("writes coin.create-account with the keyset in the data, the payer signing for gas only", () => {
    const guard = { keys: [A, B], pred: "keys-all" };
    const name = multisigAccountName(guard);
    const payload = createAccountPayload({
      networkId: "test-singleton",
      chainId: 2,
      account: name,
      guard,
      payer: "k:payer",
      payerPublicKey: C,
      gasLimit: 2500,
      gasPrice: 10_000n,
      ttl: 600,
      creationTime: 1_700_000_000,
      nonce: "n",
    });
    expect(createAccountCode(name)).toBe(
      `(coin.create-account "${name}" (read-keyset "account-guard"))`,
    );
    expect(payload.payload).toEqual({
      exec: {
        code: createAccountCode(name),
        data: { "account-guard": { keys: [A, B], pred: "keys-all" } },
      },
    });
    expect(payload.meta).toMatchObject({ chainId: "2", sender: "k:payer", gasPrice: "0.00000001" });
    expect(payload.signers).toEqual([{ pubKey: C, clist: [{ name: "coin.GAS", args: [] }] }]);
  });
});

describe("[renderer] a 2-of-2 account against a real node", () => {
  const S0 = DEV_ACCOUNT_KEYS[0];
  if (S0 === undefined) throw new Error("no dev accounts");
  const K0 = `k:${S0.publicKey}`;
  const secretA = "31".repeat(32);
  const secretB = "42".repeat(32);
  const keyA = commandModel.publicKeyOf(secretA);
  const keyB = commandModel.publicKeyOf(secretB);
  const receiver = `k:${commandModel.publicKeyOf("53".repeat(32))}`;
  let t: TestNode;
  let pact: PactClient;

  function injectFetch(): FetchLike {
    return async (url, init) => {
      const u = new URL(url);
      const res = await t.node.server.inject({
        method: init.method,
        url: `${u.pathname}${u.search}`,
        headers: { host: "127.0.0.1:1848", ...(init.headers ?? {}) },
        ...(init.body === undefined ? {} : { payload: init.body }),
      });
      return {
        ok: res.statusCode >= 200 && res.statusCode < 300,
        status: res.statusCode,
        headers: { get: (name: string) => String(res.headers[name.toLowerCase()] ?? "") || null },
        text: () => Promise.resolve(res.body),
      };
    };
  }

  beforeAll(async () => {
    t = await openTestNode();
    pact = createPactClient(
      createNodeClient({ origin: "http://127.0.0.1:1848", basePath: t.base, fetch: injectFetch() }),
    );
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  const details = async (account: string) => {
    const [a] = await readAccounts(pact, "test-singleton", 0, [account]);
    return a;
  };
  const now = () => Math.floor(Date.now() / 1000) - 15;
  const signAndSend = async (payload: Parameters<typeof commandModel.buildCommand>[0]) => {
    const unsigned = commandModel.buildCommand(payload);
    const { sig } = commandModel.signRequestKey(unsigned.hash, S0.secretKey);
    const sent = await pact.send(0, [{ ...unsigned, sigs: [{ sig }] }]);
    expect(sent.ok, JSON.stringify(sent)).toBe(true);
    return unsigned.hash;
  };

  it("creates, funds and spends it with both signatures; one signature is refused", async () => {
    const guard = buildKeyset([keyB], [keyA], "keys-all");
    if (!guard.ok) throw new Error(guard.error);
    const name = multisigAccountName(guard.value);
    const created = await signAndSend(
      createAccountPayload({
        networkId: "test-singleton",
        chainId: 0,
        account: name,
        guard: guard.value,
        payer: K0,
        payerPublicKey: S0.publicKey,
        gasLimit: 2500,
        gasPrice: 10_000n,
        ttl: 3600,
        creationTime: now(),
        nonce: "create-multisig",
      }),
    );
    const fund: TransferPlan = {
      networkId: "test-singleton",
      chainId: 0,
      sender: K0,
      signerPublicKey: S0.publicKey,
      receiver: name,
      createGuard: null,
      amount: 10n * 10n ** 12n,
      gasLimit: 2500,
      gasPrice: 10_000n,
      ttl: 3600,
      creationTime: now(),
      nonce: "fund-multisig",
    };
    await mineOn(t.node, 0);
    const polledCreate = await pact.poll(0, [created]);
    expect(polledCreate.ok && polledCreate.value.get(created)?.outcome.ok).toBe(true);
    await signAndSend(transferPayload(fund));
    await mineOn(t.node, 0);
    const funded = await details(name);
    expect(funded).toMatchObject({
      exists: true,
      balance: 10n * 10n ** 12n,
      guard: { kind: "keyset", keys: guard.value.keys, pred: "keys-all" },
    });

    const plan: TransferPlan = {
      ...fund,
      sender: name,
      signerPublicKey: keyA,
      receiver,
      createGuard: { keys: [receiver.slice(2)], pred: "keys-all" },
      amount: 3n * 10n ** 12n,
      creationTime: now(),
      nonce: "spend-multisig",
    };
    // One signer of a keys-all account: the node refuses it.
    const lone = commandModel.buildCommand(multisigTransferPayload(plan, [keyA]));
    const loneSig = commandModel.signRequestKey(lone.hash, secretA).sig;
    const refused = await pact.local(0, { ...lone, sigs: [{ sig: loneSig }] });
    expect(refused.ok && refused.value.outcome.ok).toBe(false);

    const signers = checkSigners(guard.value, guard.value.keys);
    if (!signers.ok) throw new Error(signers.error);
    const payload = multisigTransferPayload(plan, signers.value);
    expect(payload.signers.map((s) => s.pubKey)).toEqual(guard.value.keys);
    const unsigned = commandModel.buildCommand(payload);
    // Wallet 1 signs its key and passes SigData on; wallet 2 reads it, adds its signature.
    let request = unsignedSigData(unsigned.cmd, unsigned.hash, payload);
    request = withSignature(request, keyA, commandModel.signRequestKey(request.hash, secretA).sig);
    expect(isComplete(request)).toBe(false);
    const passed = parseSignRequest(serializeSignRequest(request));
    if (!passed.ok) throw new Error(passed.error);
    const complete = withSignature(
      passed.value,
      keyB,
      commandModel.signRequestKey(passed.value.hash, secretB).sig,
    );
    expect(isComplete(complete)).toBe(true);
    const back = parseSignRequest(serializeSignRequest(complete));
    if (!back.ok) throw new Error(back.error);
    const sent = await pact.send(0, [commandOf(back.value)]);
    expect(sent.ok, JSON.stringify(sent)).toBe(true);

    const entry = newHistoryEntry({
      ...commandFacts(payload),
      requestKey: unsigned.hash,
      kind: "multisig",
      status: "prepared",
      createdAt: Date.now(),
    });
    expect(entry).toMatchObject({ sender: name, receiver, amount: "3", gasPrice: "0.00000001" });
    expect((await pollHistory([entry], pact, now())).size).toBe(0);
    await mineOn(t.node, 0);
    const changed = (await pollHistory([entry], pact, now())).get(unsigned.hash);
    const polled = await pact.poll(0, [unsigned.hash]);
    const result = polled.ok ? polled.value.get(unsigned.hash) : undefined;
    expect(result?.outcome.ok).toBe(true);
    const fee = BigInt(result?.gas ?? 0) * 10_000n;
    expect(changed).toMatchObject({
      status: "succeeded",
      blockHeight: result?.blockHeight,
      fee: formatAmount(fee, COIN_DECIMALS, { group: false }),
    });
    const after = await details(name);
    expect(after?.exists && after.balance).toBe(7n * 10n ** 12n - fee);
    expect((await details(receiver))?.exists).toBe(true);
  });
});
