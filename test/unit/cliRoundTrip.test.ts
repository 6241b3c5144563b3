/**
 * Issue 10's round trip through a node: a request file prepared offline
 * (`weft -u`), signed in parts from two separate key files (`weft add-sig`,
 * once per key, each on its own copy), merged (`weft combine-sigs`), posted
 * (`weft send`), mined, and its result read back (`weft poll`), with the
 * balances it moved checked through `weft local`. Also `weft -a` for a
 * single-key file and the condensed cold-wallet form merged with the full one.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devAccount } from "../../src-node/genesis/devAccounts.ts";
import { mineOn } from "../support/nodeMining.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";
import { runWeft, tempDir } from "./cliHarness.ts";

const alice = devAccount(0);
const bob = devAccount(1);

function keyFile(a: { publicKey: string; secretKey: string }): string {
  return `public: ${a.publicKey}\nsecret: ${a.secretKey}\n`;
}

describe("[cli] prepare → sign in parts → combine → /send → result", () => {
  let t: TestNode;
  let url: string;
  const files = tempDir();
  const now = () => new Date();

  beforeAll(async () => {
    t = await openTestNode({});
    url = await t.node.start();
  });
  afterAll(async () => {
    await t.cleanup();
    rmSync(files.dir, { recursive: true, force: true });
  });

  async function balance(account: string): Promise<number> {
    const req = files.write(
      `balance-${account}.yaml`,
      [
        `code: (coin.get-balance "${account}")`,
        `keyPairs: []`,
        `networkId: test-singleton`,
        `publicMeta: { chainId: "0", sender: ${alice.account} }`,
        "type: exec",
        "",
      ].join("\n"),
    );
    const cmd = await runWeft(["-a", req, "-l"], "", now());
    expect(cmd.stderr).toBe("");
    const local = await runWeft(
      ["local", files.write(`balance-${account}.json`, cmd.stdout), "--node", url],
      "",
      now(),
    );
    expect(local.stderr).toBe("");
    const result = JSON.parse(local.stdout).result;
    expect(result.status).toBe("success");
    return Number(result.data);
  }

  it("moves coins with a transaction two key files signed separately", async () => {
    const request = files.write(
      "transfer.yaml",
      [
        `code: (coin.transfer "${alice.account}" "${bob.account}" 2.5)`,
        "signers:",
        `  - public: ${alice.publicKey}`,
        "    caps:",
        "      - name: coin.TRANSFER",
        `        args: [${alice.account}, ${bob.account}, 2.5]`,
        `  - public: ${bob.publicKey}`,
        "    caps:",
        "      - name: coin.GAS",
        "nonce: two-key-files",
        "networkId: test-singleton",
        `publicMeta: { chainId: "0", sender: ${bob.account}, gasLimit: 2500, gasPrice: 0.00000001, ttl: 3600 }`,
        "type: exec",
        "",
      ].join("\n"),
    );
    const aliceKey = files.write("alice.yaml", keyFile(alice));
    const bobKey = files.write("bob.yaml", keyFile(bob));

    const unsigned = await runWeft(["-u", request], "", now());
    expect(unsigned.stderr).toBe("");
    expect(unsigned.code).toBe(0);

    // Each signer signs a copy of the unsigned transaction on their own.
    const byAlice = await runWeft(["add-sig", aliceKey], unsigned.stdout, now());
    const byBob = await runWeft(["add-sig", bobKey], unsigned.stdout, now());
    expect(byAlice.code).toBe(0);
    expect(byBob.code).toBe(0);
    // Partly signed copies stay YAML (one signature still missing).
    expect(() => JSON.parse(byAlice.stdout)).toThrow();

    // Bob signs in cold-wallet form: hash and sigs only.
    const condensedBob = await runWeft(["add-sig", bobKey, "-c"], unsigned.stdout, now());
    expect(condensedBob.code).toBe(0);
    expect(condensedBob.stdout).not.toContain("cmd:");

    const combined = await runWeft(
      [
        "combine-sigs",
        files.write("alice-signed.yaml", byAlice.stdout),
        files.write("bob-condensed.yaml", condensedBob.stdout),
      ],
      "",
      now(),
    );
    expect(combined.stderr).toBe("");
    expect(combined.code).toBe(0);
    const body = JSON.parse(combined.stdout) as { cmds: { hash: string }[] };
    expect(body.cmds).toHaveLength(1);
    const hash = body.cmds[0]!.hash;

    // The same result from the two full copies.
    const combinedFull = await runWeft(
      ["combine-sigs", files.write("a.yaml", byAlice.stdout), files.write("b.yaml", byBob.stdout)],
      "",
      now(),
    );
    expect(JSON.parse(combinedFull.stdout)).toEqual(body);

    const aliceBefore = await balance(alice.account);
    const bobBefore = await balance(bob.account);

    const sent = await runWeft(
      ["send", files.write("send.json", combined.stdout), "--node", url],
      "",
      now(),
    );
    expect(sent.stderr).toBe("");
    expect(JSON.parse(sent.stdout)).toEqual({ requestKeys: [hash] });

    await mineOn(t.node, 0);
    const polled = await runWeft(["poll", hash, "--node", url, "--chain", "0"], "", now());
    const result = JSON.parse(polled.stdout)[hash];
    expect(result.result).toEqual({ status: "success", data: "Write succeeded" });
    const gasFee = result.gas * 0.00000001;

    expect(await balance(alice.account)).toBeCloseTo(aliceBefore - 2.5, 9);
    // Bob receives 2.5 and pays the gas.
    expect(await balance(bob.account)).toBeCloseTo(bobBefore + 2.5 - gasFee, 9);
  });

  it("sends a single-key request file formatted by weft -a", async () => {
    const request = files.write(
      "single.yaml",
      [
        "code: (+ 40 2)",
        "keyPairs:",
        `  - public: ${alice.publicKey}`,
        `    secret: ${alice.secretKey}`,
        "    caps:",
        "      - name: coin.GAS",
        "networkId: test-singleton",
        `publicMeta: { chainId: "0", sender: ${alice.account} }`,
        "type: exec",
        "",
      ].join("\n"),
    );
    const formatted = await runWeft(["-a", request], "", now());
    expect(formatted.stderr).toBe("");
    const hash = (JSON.parse(formatted.stdout) as { cmds: { hash: string }[] }).cmds[0]!.hash;
    const sent = await runWeft(
      ["send", files.write("single.json", formatted.stdout), "--node", url],
      "",
      now(),
    );
    expect(JSON.parse(sent.stdout)).toEqual({ requestKeys: [hash] });
    await mineOn(t.node, 0);
    const listened = await runWeft(["listen", hash, "--node", url, "--chain", "0"], "", now());
    expect(listened.stderr).toBe("");
    expect(JSON.parse(listened.stdout).result).toEqual({ status: "success", data: 42 });
  });
});
