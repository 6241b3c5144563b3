/**
 * A gas payer written by a user, through /send on a listening node: a module
 * in the `free` namespace implementing gas-payer-v1 owns a coin account
 * guarded by its create-gas-payer-guard; a signer with no coins scopes a
 * signature to its GAS_PAYER and names the account as the gas sender. The
 * payer's defcap sees the node's enriched message data (its exact code
 * check) and the command's gas limit in chain data; the payload sees its own
 * data. Commands the payer refuses are refused by /send (CMD_BUY_GAS_FAILED).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Capability, Command, CommandPayload } from "../../src-node/command/commandTypes.ts";
import { JsonNumber } from "../../src-node/command/exactJson.ts";
import { generateKeyPair } from "../../src-node/crypto/ed25519.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { MINER, signedCommand, transferCaps } from "../support/execChain.ts";
import { mineOn } from "../support/nodeMining.ts";
import { postJson } from "../support/postJson.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const { buildCommand, signCommand } = nodeCommands;

const BANK = "weft-payer-bank";

const PAYER_MODULE = `
(namespace "free")
(module weft-payer GOVERNANCE
  (implements gas-payer-v1)
  (defcap GOVERNANCE () (enforce false "weft-payer: not upgradable"))
  (defcap ALLOW_GAS () true)
  (defcap GAS_PAYER:bool (user:string limit:integer price:decimal)
    (enforce (= "exec" (at "tx-type" (read-msg))) "weft-payer: exec only")
    (enforce (= ["(free.weft-payer.hello (read-msg \\"n\\"))"] (at "exec-code" (read-msg)))
      "weft-payer: only hello")
    (enforce (<= (at 'gas-limit (chain-data)) limit) "weft-payer: gas limit above the signed limit")
    (compose-capability (ALLOW_GAS)))
  (defun payer-guard:bool ()
    (require-capability (coin.GAS))
    (require-capability (ALLOW_GAS)))
  (defun create-gas-payer-guard:guard () (create-user-guard (payer-guard)))
  (defun hello:string (n:integer) (format "hello {}" [n])))
(coin.create-account "${BANK}" (free.weft-payer.create-gas-payer-guard))
`;

type Result = {
  gas: number;
  result: { status: string; data?: unknown; error?: { message: string } };
  events?: { name: string; params: unknown[] }[];
};

/** A command of a fresh key (no coins) paid by the bank, its signature scoped to GAS_PAYER. */
function paidCommand(code: string, gasLimit: number, signedLimit = 1000): Command {
  const key = generateKeyPair();
  const caps: Capability[] = [
    {
      name: "free.weft-payer.GAS_PAYER",
      args: ["alice", { int: signedLimit }, JsonNumber.of("0.00000001") as JsonNumber],
    },
  ];
  const payload: CommandPayload = {
    payload: { exec: { code, data: { n: { int: 7 } } } },
    meta: {
      chainId: "0",
      sender: BANK,
      gasLimit,
      gasPrice: "0.00000001",
      ttl: 3600,
      creationTime: Math.floor(Date.now() / 1000) - 60,
    },
    signers: [{ pubKey: key.publicKey, clist: caps }],
    networkId: "test-singleton",
    nonce: `paid-${Math.random()}`,
  };
  return signCommand(buildCommand(payload), payload.signers, [key]);
}

describe("[api] a user-written gas payer through /send", () => {
  let t: TestNode;
  let api: string;
  const local = async (code: string): Promise<unknown> => {
    const r = await postJson(`${api}/local`, signedCommand({ code }));
    expect(r.status, r.text).toBe(200);
    return (JSON.parse(r.text) as Result).result.data;
  };
  const sendAndMine = async (cmd: Command): Promise<Result> => {
    const sent = await postJson(`${api}/send`, { cmds: [cmd] });
    expect(sent.status, sent.text).toBe(200);
    await mineOn(t.node, 0);
    const polled = await postJson(`${api}/poll`, { requestKeys: [cmd.hash] });
    return (JSON.parse(polled.text) as Record<string, Result>)[cmd.hash] as Result;
  };

  beforeAll(async () => {
    t = await openTestNode({});
    api = `${await t.node.start()}/chain/0/pact/api/v1`;
    const deployed = await sendAndMine(
      signedCommand({ code: PAYER_MODULE, gasLimit: 100_000, nonce: "deploy-weft-payer" }),
    );
    expect(deployed.result.status, JSON.stringify(deployed.result)).toBe("success");
    const funded = await sendAndMine(
      signedCommand({
        code: `(coin.transfer "sender00" "${BANK}" 10.0)`,
        signers: [{ key: 0, caps: transferCaps("sender00", BANK, "10.0") }],
      }),
    );
    expect(funded.result.status).toBe("success");
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("pays the gas of a command it accepts", async () => {
    const r = await sendAndMine(paidCommand('(free.weft-payer.hello (read-msg "n"))', 1000));
    // The payload saw its own data (n = 7), not the payer's message data.
    expect(r.result).toEqual({ status: "success", data: "hello 7" });
    expect(r.events?.[0]?.name).toBe("TRANSFER");
    expect(r.events?.[0]?.params.slice(0, 2)).toEqual([BANK, MINER.account]);
    expect(Number(await local(`(coin.get-balance "${BANK}")`))).toBeCloseTo(10 - r.gas * 1e-8, 10);
  });

  it("/send refuses what the payer's GAS_PAYER refuses", async () => {
    const refused = async (cmd: Command, text: string) => {
      const r = await postJson(`${api}/send`, { cmds: [cmd] });
      expect(r.status, r.text).toBe(400);
      expect(r.text).toContain("buying gas");
      expect(r.text).toContain(text);
    };
    await refused(paidCommand("(free.weft-payer.hello 8)", 1000), "weft-payer: only hello");
    await refused(
      paidCommand(`(coin.transfer "${BANK}" "sender01" 1.0)`, 1000),
      "weft-payer: only hello",
    );
    await refused(
      paidCommand('(free.weft-payer.hello (read-msg "n"))', 1500),
      "weft-payer: gas limit above the signed limit",
    );
    // Without a GAS_PAYER signature the bank's guard refuses.
    const unsigned = signedCommand({ code: "(+ 1 2)", sender: BANK, signers: [{ key: 3 }] });
    await refused(unsigned, "not granted: (free.weft-payer.ALLOW_GAS)");
  });
});
