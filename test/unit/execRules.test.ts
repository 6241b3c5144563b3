/**
 * Node rules of commands (src-node/exec/commandRules.ts) at each reference
 * time, gas arithmetic (gasMath.ts), contract inputs read from the exact
 * `cmd` text (contractInput.ts), block transactions (blockTransaction.ts)
 * and private commands (parsePrivateCommand.ts).
 */
import { describe, expect, it } from "vitest";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import { decimalToString } from "../../src-node/contract/values/decimal.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import {
  blockTransactionText,
  parseBlockTransaction,
} from "../../src-node/exec/blockTransaction.ts";
import { commandRuleViolations, type TimeRule } from "../../src-node/exec/commandRules.ts";
import { contractInputOf } from "../../src-node/exec/contractInput.ts";
import { decimalOfText, gasAmount, txSizeGas } from "../../src-node/exec/gasMath.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { parsePrivateCommand } from "../../src-node/exec/parsePrivateCommand.ts";
import { type CommandSpec, signedCommand } from "../support/execChain.ts";

const { parseCommand, requestKeyOf } = nodeCommands;

const T = 1_800_000_000;

function codes(spec: Partial<CommandSpec>, time: TimeRule): string[] {
  const c = parseCommand(
    JSON.parse(JSON.stringify(signedCommand({ code: "1", creationTime: T - 10, ...spec }))),
  );
  return commandRuleViolations(c, { version: testSingletonVersion, chainId: 0, time }).map(
    (e) => e.code,
  );
}

describe("[exec] command rules", () => {
  const submit: TimeRule = { kind: "submit", nowS: T };
  const block: TimeRule = { kind: "block", parentTimeS: T - 1000, blockTimeS: T };
  const preflight: TimeRule = { kind: "preflight", parentTimeS: T };

  it("accepts a well-formed command", () => {
    expect(codes({}, submit)).toEqual([]);
    expect(codes({}, block)).toEqual([]);
    expect(codes({}, preflight)).toEqual([]);
  });

  it("reports every broken rule, in field order", () => {
    expect(codes({ network: "development", chainId: 2, gasLimit: 0 }, submit)).toEqual([
      "CMD_WRONG_NETWORK",
      "CMD_WRONG_CHAIN",
      "CMD_GAS_LIMIT",
    ]);
    expect(codes({ gasPrice: "0.0000000000001" }, submit)).toEqual([
      "CMD_GAS_PRICE_PRECISION",
      "CMD_GAS_PRICE_TOO_LOW",
    ]);
    expect(codes({ gasLimit: 150_000, gasPrice: "0.000000010000" }, submit)).toEqual([]);
  });

  it("checks the time window against the chosen reference", () => {
    expect(codes({ ttl: 0 }, submit)).toContain("CMD_BAD_TTL");
    expect(codes({ ttl: 172_800 }, submit)).toEqual([]);
    expect(codes({ ttl: 172_801 }, submit)).toEqual(["CMD_BAD_TTL"]);
    expect(codes({ creationTime: T - 100, ttl: 100 }, submit)).toEqual(["CMD_EXPIRED"]);
    expect(codes({ creationTime: T - 100, ttl: 101 }, submit)).toEqual([]);
    expect(codes({ creationTime: T + 95 }, submit)).toEqual([]);
    expect(codes({ creationTime: T + 96 }, submit)).toEqual(["CMD_FUTURE_CREATION_TIME"]);
    // In a block: expiry against the parent's time, the future against the block's.
    expect(codes({ creationTime: T - 1100, ttl: 101 }, block)).toEqual([]);
    expect(codes({ creationTime: T - 1100, ttl: 100 }, block)).toEqual(["CMD_EXPIRED"]);
    expect(codes({ creationTime: T + 96 }, block)).toEqual(["CMD_FUTURE_CREATION_TIME"]);
    // Preflight has no future rule.
    expect(codes({ creationTime: T + 5000 }, preflight)).toEqual([]);
    expect(codes({ creationTime: -1 }, preflight)).toEqual(["CMD_EXPIRED"]);
  });
});

describe("[exec] gas arithmetic", () => {
  it("charges ⌈0.01·b + (0.01·b/512)^7⌉ for the size", () => {
    expect(txSizeGas(0)).toBe(0);
    expect(txSizeGas(1)).toBe(1);
    expect(txSizeGas(100)).toBe(2);
    expect(txSizeGas(550)).toBe(6);
    expect(txSizeGas(51_200)).toBe(513);
    expect(txSizeGas(102_400)).toBe(1024 + 128);
  });

  it("computes gas amounts exactly, rounded half-even to 12 places", () => {
    const price = decimalOfText("0.00000001");
    expect(decimalToString(gasAmount(439, price))).toBe("0.00000439");
    expect(decimalToString(gasAmount(2500, price))).toBe("0.000025");
    expect(decimalToString(gasAmount(1, decimalOfText("0.0000000000005")))).toBe("0.0");
    expect(decimalToString(gasAmount(3, decimalOfText("0.0000000000005")))).toBe("0.000000000002");
  });
});

describe("[exec] command inputs", () => {
  it("reads data and capability arguments from the exact cmd text", () => {
    const c = parseCommand(
      JSON.parse(
        JSON.stringify(
          signedCommand({
            code: "(read-msg)",
            data: { amount: 1.5, big: "x" },
            signers: [{ key: 0, caps: [{ name: "coin.GAS", args: [] }] }],
          }),
        ),
      ),
    );
    const input = contractInputOf(c);
    expect(input.payload).toEqual({ kind: "exec", code: "(read-msg)" });
    expect(input.data.kind).toBe("object");
    expect(input.signers[0]?.caps).toEqual([{ name: "coin.GAS", args: [] }]);
    expect(input.sizeBytes).toBe(Buffer.byteLength(c.cmd));
    const withNull = parseCommand(
      JSON.parse(JSON.stringify(signedCommand({ code: "1", data: { x: null } }))),
    );
    let code = "";
    try {
      contractInputOf(withNull, "cmds[4].");
    } catch (e) {
      code = isNodeError(e)
        ? `${e.code} ${(e.type as unknown as { field: string }).field}`
        : "other";
    }
    expect(code).toBe("CMD_BAD_FIELD cmds[4].cmd.payload.exec.data");
  });

  it("writes block transactions as {hash, sigs: [{sig}], cmd} and reads them back", () => {
    const signed = signedCommand({ code: "1" });
    const c = parseCommand({ ...signed, sigs: signed.sigs.map((s) => ({ ...s, extra: 1 })) });
    const text = blockTransactionText(c);
    expect(Object.keys(JSON.parse(text))).toEqual(["hash", "sigs", "cmd"]);
    expect(JSON.parse(text).sigs).toEqual([{ sig: signed.sigs[0]?.sig }]);
    expect(parseBlockTransaction(new TextEncoder().encode(text), "t").hash).toBe(c.hash);
    expect(() => parseBlockTransaction(new Uint8Array([0xff]), "t")).toThrow(/UTF-8 JSON/);
  });

  it("reads private commands: address from and to", () => {
    const cmd = JSON.stringify({
      payload: { exec: { code: "1" } },
      meta: { address: { from: "a", to: ["b", "c"] } },
      signers: [],
      nonce: "n",
    });
    const p = parsePrivateCommand({ cmd, hash: requestKeyOf(cmd), sigs: [] });
    expect(p.address).toEqual({ from: "a", to: ["b", "c"] });
    const noTo = JSON.stringify({ meta: { address: { from: "a", to: [] } } });
    expect(() => parsePrivateCommand({ cmd: noTo, hash: requestKeyOf(noTo), sigs: [] })).toThrow(
      /cmd.meta.address.to/,
    );
  });
});
