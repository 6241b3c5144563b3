/**
 * The reference ecosystem's own client helpers (`@kadena/client-utils`, a dev
 * dependency, used unchanged) against a Weft `development` node given only
 * its address `http://127.0.0.1:PORT`: they build every URL as
 * `{host}/chainweb/0.0/development/chain/{c}/pact/…`, hash commands with
 * Blake2b-256, and sign with the reference devnet's published keys of
 * `sender00`/`sender01`. A real node on loopback, its built-in miner on (one
 * thread, real proof of work at development's genesis difficulty): reads
 * (balance, details, principals, describe-module), create account,
 * transfer, transfer-create, a cross-chain transfer whose target-chain step
 * the sender pays, and gas estimation by /local and from recent blocks.
 */
import { createSignWithKeypair } from "@kadena/client";
import { createPrincipal, describeModule } from "@kadena/client-utils/built-in";
import {
  createAccount,
  details,
  getBalance,
  transfer,
  transferCommand,
  transferCreate,
  transferCrossChain,
} from "@kadena/client-utils/coin";
import { estimateGas, getBlocksGasInformation } from "@kadena/client-utils/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicKeyOf } from "../../src-node/crypto/ed25519.ts";
import { devAccount } from "../../src-node/genesis/devAccounts.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";
import { loadVectors } from "../support/vectors.ts";

const NETWORK = "development";
/** Each step waits for blocks from the built-in miner (one thread, real proof of work). */
const MINED_STEP_MS = 180_000;

const sender00 = devAccount(0);
const sender01 = devAccount(1);

/** A key pair of our own for the accounts the test creates (a fixed seed). */
function keyPair(seedByte: number): { publicKey: string; secretKey: string } {
  const secretKey = seedByte.toString(16).padStart(2, "0").repeat(32);
  return { publicKey: publicKeyOf(secretKey), secretKey };
}
const alice = keyPair(0xa1);
const bob = keyPair(0xb0);
const carol = keyPair(0xc4);

let t: TestNode;
/** What a user gives the tools: the node's address, nothing else. */
let host: string;

const sign = createSignWithKeypair([
  { publicKey: sender00.publicKey, secretKey: sender00.secretKey },
  { publicKey: sender01.publicKey, secretKey: sender01.secretKey },
]);
const readConfig = (chainId: "0" | "1") => ({
  host,
  defaults: { networkId: NETWORK, meta: { chainId } },
});
const submitConfig = () => ({ host, defaults: { networkId: NETWORK }, sign });

beforeAll(async () => {
  t = await openTestNode({
    network: NETWORK,
    host: "127.0.0.1",
    mining: { enabled: true, threads: 1, account: `k:${"d".repeat(64)}` },
  });
  await t.node.start();
  host = t.node.origin;
  expect(host).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
});
afterAll(async () => {
  await t?.cleanup();
});

describe("[api] @kadena/client-utils against a development node (reads by /local)", () => {
  it("reads sender00's balance and details (the reference devnet's key guards it)", async () => {
    expect(await getBalance("sender00", NETWORK, "0", host)).toBe("1000000");
    expect(await details("sender00", NETWORK, "3", host)).toEqual({
      account: "sender00",
      balance: 1000000,
      guard: { pred: "keys-all", keys: [sender00.publicKey] },
    });
  });

  it("computes principals as the reference does", async () => {
    expect(await createPrincipal({ keyset: { keys: [alice.publicKey] } }, readConfig("0"))).toBe(
      `k:${alice.publicKey}`,
    );
    type PrincipalCase = {
      name: string;
      guard?: { keys: string[]; pred: "keys-any" | "keys-all" };
      expectedPrincipal?: string;
    };
    const cases = loadVectors<PrincipalCase>("contract-hashes.json").cases.filter(
      (c) => c.expectedPrincipal?.startsWith("w:") === true,
    );
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      const guard = c.guard as { keys: string[]; pred: "keys-any" | "keys-all" };
      expect(await createPrincipal({ keyset: guard }, readConfig("0")), c.name).toBe(
        c.expectedPrincipal,
      );
    }
  });

  it("describes the coin module", async () => {
    const coin = await describeModule("coin", readConfig("0"));
    expect(coin.name).toBe("coin");
    expect(coin.interfaces).toEqual(["fungible-v2", "fungible-xchain-v1"]);
    expect(coin.hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(coin.code).toMatch(/^\(module coin /);
    // The same module on another chain: the same hash.
    expect((await describeModule("coin", readConfig("1"))).hash).toBe(coin.hash);
  });
});

describe("[api] @kadena/client-utils against a development node (mined transactions)", () => {
  it(
    "creates an account, gas paid by sender00",
    async () => {
      const account = `k:${alice.publicKey}`;
      const result = await createAccount(
        {
          account,
          keyset: { keys: [alice.publicKey], pred: "keys-all" },
          gasPayer: { account: "sender00", publicKeys: [sender00.publicKey] },
          chainId: "0",
        },
        submitConfig(),
      ).execute();
      expect(result).toBe("Write succeeded");
      expect(await details(account, NETWORK, "0", host)).toEqual({
        account,
        balance: 0,
        guard: { pred: "keys-all", keys: [alice.publicKey] },
      });
    },
    MINED_STEP_MS,
  );

  it(
    "transfers from sender00 to an existing account",
    async () => {
      const before = Number(await getBalance("sender00", NETWORK, "0", host));
      const result = await transfer(
        {
          sender: { account: "sender00", publicKeys: [sender00.publicKey] },
          receiver: `k:${alice.publicKey}`,
          amount: "5.25",
          chainId: "0",
        },
        submitConfig(),
      ).execute();
      expect(result).toBe("Write succeeded");
      expect(await getBalance(`k:${alice.publicKey}`, NETWORK, "0", host)).toBe("5.25");
      const after = Number(await getBalance("sender00", NETWORK, "0", host));
      // The amount and some gas left sender00.
      expect(after).toBeLessThan(before - 5.25);
      expect(after).toBeGreaterThan(before - 5.25 - 0.01);
    },
    MINED_STEP_MS,
  );

  it(
    "transfer-creates a new account from sender01",
    async () => {
      const account = `k:${bob.publicKey}`;
      const result = await transferCreate(
        {
          sender: { account: "sender01", publicKeys: [sender01.publicKey] },
          receiver: { account, keyset: { keys: [bob.publicKey], pred: "keys-all" } },
          amount: "2.5",
          chainId: "0",
        },
        submitConfig(),
      ).execute();
      expect(result).toBe("Write succeeded");
      expect(await details(account, NETWORK, "0", host)).toEqual({
        account,
        balance: 2.5,
        guard: { pred: "keys-all", keys: [bob.publicKey] },
      });
    },
    MINED_STEP_MS,
  );

  it(
    "transfers across chains (0 → 1), the target chain's gas paid by the sender",
    async () => {
      const account = `k:${carol.publicKey}`;
      const sender00On1Before = Number(await getBalance("sender00", NETWORK, "1", host));
      const events: string[] = [];
      const run = transferCrossChain(
        {
          sender: { account: "sender00", publicKeys: [sender00.publicKey] },
          receiver: { account, keyset: { keys: [carol.publicKey], pred: "keys-all" } },
          amount: "3.0",
          chainId: "0",
          targetChainId: "1",
          targetChainGasPayer: { account: "sender00", publicKeys: [sender00.publicKey] },
        },
        submitConfig(),
      );
      run.on("spv-proof", () => events.push("spv-proof"));
      run.on("sign-continuation", () => events.push("sign-continuation"));
      run.on("listen-continuation", () => events.push("listen-continuation"));
      expect(await run.execute()).toBe("Write succeeded");
      expect(events).toEqual(["spv-proof", "sign-continuation", "listen-continuation"]);
      expect(await details(account, NETWORK, "1", host)).toEqual({
        account,
        balance: 3,
        guard: { pred: "keys-all", keys: [carol.publicKey] },
      });
      // Nothing of it on chain 0; the continuation's gas left sender00 on chain 1.
      await expect(getBalance(account, NETWORK, "0", host)).rejects.toBeDefined();
      const sender00On1After = Number(await getBalance("sender00", NETWORK, "1", host));
      expect(sender00On1After).toBeLessThan(sender00On1Before);
    },
    MINED_STEP_MS,
  );

  it("estimates gas by /local, and reads gas prices from recent blocks", async () => {
    const command = transferCommand({
      sender: { account: "sender00", publicKeys: [sender00.publicKey] },
      receiver: "sender01",
      amount: "1.0",
      chainId: "0",
    });
    const withNetwork = () => ({ ...command(), networkId: NETWORK });
    const estimate = await estimateGas(withNetwork, host);
    // A coin transfer costs a few hundred units, far below the 140,000 limit asked.
    expect(estimate.gasLimit).toBeGreaterThan(100);
    expect(estimate.gasLimit).toBeLessThan(5000);
    // The price: the helper asks blocks up to the chain's height + 1, a height the
    // spec answers with 404 (README, "Using the ecosystem's tools"); estimateGas
    // then takes the minimum gas price, which is development's.
    expect(estimate.gasPrice).toBe(1e-8);
    await expect(
      getBlocksGasInformation({ host, chainId: "0", networkId: NETWORK }),
    ).rejects.toThrow();
    // Given the chain's height, the block pages under /chainweb/0.0/ parse: the
    // transactions mined above are counted with their gas and price.
    const height = t.node.blocks.cut().get(0)?.height ?? 0;
    const blocks = await getBlocksGasInformation({
      host,
      chainId: "0",
      networkId: NETWORK,
      height,
      items: height,
    });
    const withTxs = blocks.filter((b) => b.txCount > 0);
    expect(withTxs.length).toBeGreaterThanOrEqual(3);
    for (const b of withTxs) {
      expect(b.totalGasConsumed).toBeGreaterThan(0);
      expect(b.gasPriceStats.min).toBe(1e-8);
    }
  });
});
