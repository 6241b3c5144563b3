/**
 * Genesis (src-node/genesis/): every chain of `development` starts with the
 * system contracts installed and the test accounts funded; the genesis
 * payloads hold the genesis commands and their results; the run is
 * deterministic; other networks fund what their configuration lists; after
 * genesis the node's namespace policy holds and the test accounts can sign.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { genesisHeadersOf } from "../../src-node/chain/genesisHeader.ts";
import { buildGenesisPayload } from "../../src-node/chain/genesisPayload.ts";
import type { NetworkVersion } from "../../src-node/chain/networkVersion.ts";
import {
  developmentVersion,
  mainnet01Version,
  testnet04Version,
  testTransitionVersion,
} from "../../src-node/chain/versions.ts";
import type { ContractStorage, Signer } from "../../src-node/contract/eval/runtimeContext.ts";
import { type ContractOutcome, runContractCommand } from "../../src-node/contract/execute.ts";
import { createMemoryStorage } from "../../src-node/contract/storage/memoryStorage.ts";
import { pactValueToJsonText } from "../../src-node/contract/values/json.ts";
import { makeObject, type PactValue } from "../../src-node/contract/values/value.ts";
import { signBytes, verifyBytes } from "../../src-node/crypto/ed25519.ts";
import { hexDecode } from "../../src-node/encoding/hex.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import {
  DEV_ACCOUNT_COUNT,
  DEV_PHRASE,
  derivePhraseAccount,
  devAccount,
  devAccountName,
  PHRASE_ACCOUNT_COUNT,
  PHRASE_PUBLIC_KEYS,
} from "../../src-node/genesis/devAccounts.ts";
import { GenesisError } from "../../src-node/genesis/errors.ts";
import {
  checkGenesisConfig,
  DEV_ACCOUNT_FUNDS,
  genesisConfigOf,
} from "../../src-node/genesis/genesisConfig.ts";
import { computeGenesisPayload, genesisPayloads } from "../../src-node/genesis/genesisPayloads.ts";
import { genesisChainData, runGenesis } from "../../src-node/genesis/runGenesis.ts";
import {
  GAS_STATION_ACCOUNT,
  SYSTEM_CONTRACTS,
  SYSTEM_NAMESPACE_POLICY,
} from "../../src-node/genesis/systemContracts.ts";

const { parseCommand, requestKeyOf } = nodeCommands;

const decoder = new TextDecoder();

/** Runs code on a chain's state after genesis (local: nothing is kept). */
function query(
  storage: ContractStorage,
  version: NetworkVersion,
  chainId: number,
  code: string,
  opts: { signers?: Signer[]; mode?: "local" | "transactional"; data?: PactValue } = {},
): ContractOutcome {
  return runContractCommand({
    payload: { kind: "exec", code },
    data: opts.data ?? makeObject([]),
    signers: opts.signers ?? [],
    chainData: { ...genesisChainData(version, chainId), blockHeight: 1n },
    txHash: requestKeyOf(code),
    gasLimit: 100_000,
    namespacePolicy: SYSTEM_NAMESPACE_POLICY,
    storage,
    mode: opts.mode ?? "local",
  });
}

function valueText(o: ContractOutcome): string {
  if (!o.result.ok) throw new Error(`failed: ${o.result.error.message}`);
  return pactValueToJsonText(o.result.value);
}

function failure(o: ContractOutcome): string {
  if (o.result.ok)
    throw new Error(`expected a failure, got ${pactValueToJsonText(o.result.value)}`);
  return o.result.error.message;
}

describe("[genesis] every chain of development", () => {
  const states = new Map(
    developmentVersion.chainIds.map((c) => {
      const storage = createMemoryStorage();
      return [c, { storage, results: runGenesis(developmentVersion, c, storage) }] as const;
    }),
  );

  it("has 20 chains", () => expect(states.size).toBe(20));

  for (const [chainId, { storage, results }] of states) {
    it(`chain ${chainId}: the system contracts are installed`, () => {
      expect(results.map((r) => r.transaction.name)).toEqual([...SYSTEM_CONTRACTS, "allocations"]);
      for (const name of SYSTEM_CONTRACTS) expect(storage.readSys("modules", name)).not.toBeNull();
      expect(
        valueText(
          query(storage, developmentVersion, chainId, '(at "interfaces" (describe-module "coin"))'),
        ),
      ).toBe('["fungible-v2","fungible-xchain-v1"]');
      expect(
        valueText(
          query(
            storage,
            developmentVersion,
            chainId,
            "(map (describe-namespace) ns.OPEN_NAMESPACES)",
          ),
        ),
      ).toContain('"namespace-name":"util"');
    });

    it(`chain ${chainId}: the test accounts are funded`, () => {
      const names = [
        ...Array.from({ length: DEV_ACCOUNT_COUNT }, (_, i) => devAccountName(i)),
        ...DEV_ACCOUNT_KEYS.map((k) => `k:${k.publicKey}`),
        ...PHRASE_PUBLIC_KEYS.map((k) => `k:${k}`),
      ];
      const code = `(map (coin.get-balance) ${JSON.stringify(names).replaceAll(",", " ")})`;
      expect(valueText(query(storage, developmentVersion, chainId, code))).toBe(
        JSON.stringify(names.map(() => 1_000_000)),
      );
      expect(
        valueText(query(storage, developmentVersion, chainId, '(coin.details "sender03")')),
      ).toBe(
        `{"guard":{"pred":"keys-all","keys":["${devAccount(3).publicKey}"]},"balance":1000000,"account":"sender03"}`,
      );
      expect(
        valueText(
          query(
            storage,
            developmentVersion,
            chainId,
            `(coin.get-balance "${GAS_STATION_ACCOUNT}")`,
          ),
        ),
      ).toBe("1000");
    });
  }

  it("installs the same modules (same hashes) on every chain", () => {
    const hashes = [...states.values()].map(({ storage }) =>
      SYSTEM_CONTRACTS.map((n) => storage.readSys("modules", n)?.hash),
    );
    for (const h of hashes) expect(h).toEqual(hashes[0]);
    expect(new Set(hashes[0]).size).toBe(SYSTEM_CONTRACTS.length);
  });

  it('funding emits TRANSFER events from ""', () => {
    const alloc = states.get(0)?.results.at(-1);
    const events = alloc?.outcome.events ?? [];
    expect(events.length).toBe(1 + 2 * DEV_ACCOUNT_COUNT + PHRASE_ACCOUNT_COUNT);
    expect(events.every((e) => e.name === "TRANSFER" && e.module.name === "coin")).toBe(true);
    expect(events.map((e) => pactValueToJsonText(e.params[1] as PactValue))).toContain(
      '"sender00"',
    );
  });

  it("genesis cannot run twice on the same state", () => {
    const storage = states.get(5)?.storage as ContractStorage;
    try {
      runGenesis(developmentVersion, 5, storage);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(GenesisError);
      expect((e as GenesisError).type).toMatchObject({
        code: "GENESIS_TX_FAILED",
        network: "development",
        chainId: 5,
        tx: "fungible-v2",
      });
    }
  });
});

describe("[genesis] after genesis", () => {
  const storage = createMemoryStorage();
  runGenesis(developmentVersion, 0, storage);
  const sender00 = devAccount(0);

  it("a test account signs a transfer with its published key", () => {
    const signer: Signer = {
      pubKey: sender00.publicKey,
      scheme: "ED25519",
      caps: [
        {
          name: "coin.TRANSFER",
          args: [
            { kind: "string", value: "sender00" },
            { kind: "string", value: "sender01" },
            { kind: "decimal", value: { mantissa: 15n, scale: 1 } },
          ],
        },
      ],
    };
    const out = query(storage, developmentVersion, 0, '(coin.transfer "sender00" "sender01" 1.5)', {
      signers: [signer],
      mode: "transactional",
    });
    expect(valueText(out)).toBe('"Write succeeded"');
    expect(
      valueText(
        query(
          storage,
          developmentVersion,
          0,
          '[(coin.get-balance "sender00") (coin.get-balance "sender01")]',
        ),
      ),
    ).toBe("[999998.5,1000001.5]");
    const unsigned = query(
      storage,
      developmentVersion,
      0,
      '(coin.transfer "sender00" "sender01" 1.5)',
    );
    expect(failure(unsigned)).toContain("Managed capability not installed");
  });

  it("the root is closed, the open namespaces are open", () => {
    expect(
      failure(
        query(storage, developmentVersion, 0, "(module m G (defcap G () true) (defun f () 1))"),
      ),
    ).toBe("Definitions in default namespace are not authorized");
    expect(
      valueText(
        query(
          storage,
          developmentVersion,
          0,
          '(namespace "free") (module m G (defcap G () true) (defun f () 1)) (free.m.f)',
        ),
      ),
    ).toBe('{"int":1}');
    expect(
      failure(
        query(
          storage,
          developmentVersion,
          0,
          '(define-namespace "mine" ns.GUARD_SUCCESS ns.GUARD_SUCCESS)',
        ),
      ),
    ).toBe("Namespace definition not permitted: mine");
  });
});

describe("[genesis] payloads", () => {
  const payloads = genesisPayloads(developmentVersion);

  it("one per chain, each with the seven genesis transactions, all different", () => {
    expect([...payloads.keys()]).toEqual(developmentVersion.chainIds);
    for (const p of payloads.values())
      expect(p.transactions.length).toBe(SYSTEM_CONTRACTS.length + 1);
    expect(new Set([...payloads.values()].map((p) => p.payloadHash)).size).toBe(20);
  });

  it("are cached per network", () => {
    expect(genesisPayloads(developmentVersion)).toBe(payloads);
  });

  it("are deterministic", () => {
    expect(computeGenesisPayload(developmentVersion, 7).payloadHash).toBe(
      payloads.get(7)?.payloadHash,
    );
  });

  it("carry unsigned genesis commands of the network and chain, and their results", () => {
    for (const [chainId, p] of payloads) {
      p.transactions.forEach((t, i) => {
        const command = JSON.parse(decoder.decode(t.transaction)) as {
          hash: string;
          sigs: unknown[];
          cmd: string;
        };
        expect(Object.keys(command)).toEqual(["hash", "sigs", "cmd"]);
        expect(command.sigs).toEqual([]);
        expect(command.hash).toBe(requestKeyOf(command.cmd));
        const parsed = parseCommand(command);
        expect(parsed.payload.networkId).toBe("development");
        expect(parsed.payload.meta.chainId).toBe(String(chainId));
        expect(parsed.payload.signers).toEqual([]);
        expect(parsed.payload.meta.creationTime).toBe(developmentVersion.genesisTime / 1_000_000);
        const result = JSON.parse(decoder.decode(t.output)) as Record<string, unknown>;
        expect(Object.keys(result).filter((k) => k !== "events")).toEqual([
          "gas",
          "result",
          "reqKey",
          "logs",
          "metaData",
          "continuation",
          "txId",
        ]);
        expect(result).toMatchObject({
          gas: 0,
          reqKey: command.hash,
          metaData: null,
          continuation: null,
          txId: i,
        });
        expect((result.result as { status: string }).status).toBe("success");
        expect(result.logs).toMatch(/^[A-Za-z0-9_-]{43}$/);
      });
    }
  });

  it("match the results of running genesis on a contract storage", () => {
    const results = runGenesis(developmentVersion, 3, createMemoryStorage());
    const p = payloads.get(3);
    expect(results.map((r) => r.resultJson)).toEqual(
      p?.transactions.map((t) => decoder.decode(t.output)),
    );
    expect(results.map((r) => r.commandJson)).toEqual(
      p?.transactions.map((t) => decoder.decode(t.transaction)),
    );
  });

  it("change the genesis headers from the empty genesis payload", () => {
    const empty = buildGenesisPayload([]);
    const real = genesisHeadersOf(
      developmentVersion,
      (c) => payloads.get(c)?.payloadHash ?? empty.payloadHash,
    );
    const before = genesisHeadersOf(developmentVersion, () => empty.payloadHash);
    for (const c of developmentVersion.chainIds) {
      expect(real.get(c)?.payloadHash).toBe(payloads.get(c)?.payloadHash);
      expect(real.get(c)?.hash).not.toBe(before.get(c)?.hash);
    }
  });
});

describe("[genesis] other networks", () => {
  it.each([testnet04Version, mainnet01Version])(
    "$name funds no account; the gas station exists, empty",
    (version) => {
      expect(genesisConfigOf(version).accounts).toEqual([]);
      const storage = createMemoryStorage();
      runGenesis(version, 0, storage);
      expect(
        valueText(query(storage, version, 0, `(coin.get-balance "${GAS_STATION_ACCOUNT}")`)),
      ).toBe("0");
      expect(failure(query(storage, version, 0, '(coin.get-balance "sender00")'))).toContain(
        "row not found",
      );
    },
  );

  it("chains joining later start at their genesis height", () => {
    expect(genesisChainData(testTransitionVersion, 15).blockHeight).toBe(10n);
    expect(genesisChainData(mainnet01Version, 15).blockHeight).toBe(852_054n);
    const storage = createMemoryStorage();
    const results = runGenesis(testTransitionVersion, 15, storage);
    expect(results.every((r) => r.outcome.result.ok)).toBe(true);
  });

  it("a chain the network does not have", () => {
    expect(() => runGenesis(developmentVersion, 20, createMemoryStorage())).toThrow(
      /not a chain of development/,
    );
  });

  it("refuses bad configurations", () => {
    const ok = {
      account: "alice",
      keys: [devAccount(0).publicKey],
      pred: "keys-all" as const,
      amount: "1.0",
    };
    const codeOf = (accounts: (typeof ok)[], funds = "0.0"): unknown => {
      try {
        checkGenesisConfig("n", { accounts, gasStationFunds: funds });
        return null;
      } catch (e) {
        return (e as GenesisError).type;
      }
    };
    expect(codeOf([ok])).toBeNull();
    expect(codeOf([{ ...ok, amount: "1" }])).toMatchObject({
      code: "GENESIS_BAD_ALLOCATION",
      account: "alice",
    });
    expect(codeOf([{ ...ok, amount: "1.0000000000001" }])).toMatchObject({
      code: "GENESIS_BAD_ALLOCATION",
    });
    expect(codeOf([{ ...ok, keys: ["ABC"] }])).toMatchObject({ code: "GENESIS_BAD_ALLOCATION" });
    expect(codeOf([{ ...ok, keys: [] }])).toMatchObject({ code: "GENESIS_BAD_ALLOCATION" });
    expect(codeOf([{ ...ok, account: 'a"b' }])).toMatchObject({ code: "GENESIS_BAD_ALLOCATION" });
    expect(codeOf([{ ...ok, account: "ab" }])).toMatchObject({ code: "GENESIS_BAD_ALLOCATION" });
    expect(codeOf([ok, ok])).toMatchObject({ reason: "listed twice" });
    expect(codeOf([], "-1.0")).toMatchObject({ account: "gas station" });
  });
});

describe("[genesis] test accounts", () => {
  it("sender00 … sender09 hold the reference devnet's published key pairs", () => {
    expect(DEV_ACCOUNT_COUNT).toBe(10);
    // The reference's sender00, as its tutorials and tools name it.
    expect(devAccount(0).publicKey).toBe(
      "368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca",
    );
    const message = hexDecode("00ff", "m");
    for (let i = 0; i < DEV_ACCOUNT_COUNT; i++) {
      const a = devAccount(i);
      expect(a.account).toBe(devAccountName(i));
      expect(a.kAccount).toBe(`k:${a.publicKey}`);
      // Each secret key is the seed of its public key.
      expect(verifyBytes(message, signBytes(message, a.secretKey), a.publicKey)).toBe(true);
    }
    expect(new Set(DEV_ACCOUNT_KEYS.map((k) => k.publicKey)).size).toBe(DEV_ACCOUNT_COUNT);
  });

  it("the phrase accounts derive from the published phrase on m/44'/626'/i'", () => {
    for (let i = 0; i < PHRASE_ACCOUNT_COUNT; i++) {
      const a = derivePhraseAccount(i);
      expect(a.publicKey).toBe(PHRASE_PUBLIC_KEYS[i]);
      expect(a.kAccount).toBe(`k:${a.publicKey}`);
      expect(a.path).toBe(`m/44'/626'/${i}'`);
      const message = hexDecode("00ff", "m");
      expect(verifyBytes(message, signBytes(message, a.secretKey), a.publicKey)).toBe(true);
    }
  });

  it("each fund 1,000,000 as senderNN, as k:KEY and as the phrase's k:KEY on development", () => {
    const accounts = genesisConfigOf(developmentVersion).accounts;
    expect(accounts.map((a) => a.account)).toEqual([
      ...DEV_ACCOUNT_KEYS.map((k) => k.account),
      ...DEV_ACCOUNT_KEYS.map((k) => `k:${k.publicKey}`),
      ...PHRASE_PUBLIC_KEYS.map((k) => `k:${k}`),
    ]);
    expect(accounts.every((a) => a.amount === DEV_ACCOUNT_FUNDS && a.pred === "keys-all")).toBe(
      true,
    );
  });

  it("are listed in docs/dev-accounts.md with every name and key, and the phrase", () => {
    const doc = readFileSync(resolve(import.meta.dirname, "../../docs/dev-accounts.md"), "utf8");
    for (let i = 0; i < DEV_ACCOUNT_COUNT; i++) {
      const a = devAccount(i);
      expect(doc).toContain(`| \`${a.account}\` | \`${a.publicKey}\` | \`${a.secretKey}\` |`);
    }
    expect(doc).toContain(DEV_PHRASE);
    for (let i = 0; i < PHRASE_ACCOUNT_COUNT; i++) {
      const a = derivePhraseAccount(i);
      expect(doc).toContain(`| \`${a.path}\` | \`${a.publicKey}\` | \`${a.secretKey}\` |`);
    }
  });
});
