/**
 * `weft -g`, `weft -a FILE [-l]` and `weft -u FILE [-c]`: outputs, defaults,
 * and every bad input exiting non-zero with the file and field named and
 * nothing on stdout.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { JsonNumber } from "../../src-node/command/exactJson.ts";
import { publicKeyOf, verifyBytes } from "../../src-node/crypto/ed25519.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { FIXED_NOW, fixture, runWeft } from "./cliHarness.ts";

const { parseCommand, requestKeyBytesOf, requestKeyOf, verifyCommandSignatures } = nodeCommands;

const ALICE = "19fdf052dc5e40a83d48174a64bdb0c16b830d7cd3dbc45f55a9647243b77089";
const BOB = "63be59b80d35ac26034f2408c65e2bfba638640cd52df2ecc2aa99c21c3d7b25";

type Cmd = {
  cmd: string;
  hash: string;
  sigs: { sig: string; scheme: string; pubKey: string; addr: string }[];
};

/** Runs `weft -a` and checks the result is a valid, verifying /send body; returns its one command. */
async function send(file: string): Promise<Cmd> {
  const run = await runWeft(["-a", fixture(file)]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const body = JSON.parse(run.stdout) as { cmds: Cmd[] };
  expect(Object.keys(body)).toEqual(["cmds"]);
  expect(body.cmds).toHaveLength(1);
  const c = body.cmds[0] as Cmd;
  expect(c.hash).toBe(requestKeyOf(c.cmd));
  verifyCommandSignatures(parseCommand(c));
  return c;
}

describe("[cli] weft -g", () => {
  it("prints a fresh key pair as YAML usable as a key file", async () => {
    const a = await runWeft(["-g"]);
    const b = await runWeft(["--genkey"]);
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/^public: [0-9a-f]{64}\nsecret: [0-9a-f]{64}\n$/);
    const key = parseYaml(a.stdout) as { public: string; secret: string };
    expect(publicKeyOf(key.secret)).toBe(key.public);
    expect(b.stdout).not.toBe(a.stdout);
  });

  it("works as a real process through bin/weft.js", () => {
    const bin = resolve(import.meta.dirname, "..", "..", "bin", "weft.js");
    const out = spawnSync(process.execPath, [bin, "-g"], { encoding: "utf8", timeout: 60_000 });
    expect(out.stderr).toBe("");
    expect(out.status).toBe(0);
    const key = parseYaml(out.stdout) as { public: string; secret: string };
    expect(publicKeyOf(key.secret)).toBe(key.public);
  });
});

describe("[cli] weft -a", () => {
  it("formats an exec request file as a signed /send body", async () => {
    const c = await send("exec.yaml");
    expect(c.cmd).toBe(
      JSON.stringify({
        payload: {
          exec: {
            code: '(coin.transfer "alice" "bob" 1.0)',
            data: { amount: 1.0, ks: { keys: [ALICE], pred: "keys-all" } },
          },
        },
        meta: {
          chainId: "3",
          sender: "alice",
          gasLimit: 1200,
          gasPrice: 0.000001,
          ttl: 600,
          creationTime: 1700000000,
        },
        signers: [
          {
            pubKey: ALICE,
            clist: [
              { name: "coin.GAS", args: [] },
              { name: "coin.TRANSFER", args: ["alice", "bob", 1.0] },
            ],
          },
        ],
        networkId: "development",
        nonce: "exec-nonce-1",
      })
        // JSON.stringify writes 1.0 as 1 and 0.000001 as 0.000001; the tool keeps 1.0 as written.
        .replaceAll(":1,", ":1.0,")
        .replace('"bob",1]', '"bob",1.0]'),
    );
    expect(c.sigs).toHaveLength(1);
    const [sig] = c.sigs;
    expect(Object.keys(sig ?? {})).toEqual(["sig", "scheme", "pubKey", "addr"]);
    expect(sig).toMatchObject({ scheme: "ED25519", pubKey: ALICE, addr: ALICE });
    expect(verifyBytes(requestKeyBytesOf(c.cmd), sig?.sig ?? "", ALICE)).toBe(true);
  });

  it("with -l prints the single command for /local (flags in either order)", async () => {
    const body = await runWeft(["-a", fixture("exec.yaml")]);
    for (const argv of [
      ["-a", fixture("exec.yaml"), "-l"],
      ["-l", "-a", fixture("exec.yaml")],
      ["--local", "--apireq", fixture("exec.yaml")],
    ]) {
      const run = await runWeft(argv);
      expect(run.code).toBe(0);
      const c = JSON.parse(run.stdout) as Cmd;
      expect(Object.keys(c)).toEqual(["cmd", "hash", "sigs"]);
      expect(c).toEqual((JSON.parse(body.stdout) as { cmds: Cmd[] }).cmds[0]);
    }
  });

  it("reads codeFile and dataFile relative to the request file, keeping numbers exact", async () => {
    const c = await send("exec-files.yaml");
    const payload = JSON.parse(c.cmd) as {
      payload: { exec: { code: string } };
      meta: { chainId: string };
    };
    expect(payload.payload.exec.code).toBe(
      '(coin.transfer "alice" "bob" (read-decimal "amount"))\n',
    );
    expect(c.cmd).toContain('"data":{"amount":2.50,"big":123456789012345678901234567890}');
    expect(payload.meta.chainId).toBe("0");
  });

  it("fills documented defaults for a minimal file", async () => {
    const c = await send("minimal.yaml");
    expect(c.cmd).toBe(
      `{"payload":{"exec":{"code":"(+ 1 2)","data":{}}},` +
        `"meta":{"chainId":"0","sender":"","gasLimit":2500,"gasPrice":0.00000001,"ttl":28800,"creationTime":${Math.floor(FIXED_NOW.getTime() / 1000)}},` +
        `"signers":[],"networkId":null,"nonce":"${FIXED_NOW.toISOString()}"}`,
    );
    expect(c.sigs).toEqual([]);
  });

  it("formats continuation files (contractTxHash or the reference names)", async () => {
    const c = await send("cont.yaml");
    expect(c.cmd).toContain(
      `"payload":{"cont":{"pactId":"y3aWL72-3wAy7vL9wcegGXnstH0lHi-q-cfxkhD5JCw","step":1,"rollback":false,"data":{},"proof":"eyJjaGFpbiI6MX0"}}`,
    );
    expect(parseCommand(c).payload.meta).toMatchObject({ chainId: "1", gasLimit: 850 });
    const d = await send("cont-pactid.yaml");
    expect(parseCommand(d).payload.payload).toEqual({
      cont: {
        pactId: "y3aWL72-3wAy7vL9wcegGXnstH0lHi-q-cfxkhD5JCw",
        step: 0,
        rollback: true,
        data: {},
        proof: null,
      },
    });
  });
});

describe("[cli] weft -u", () => {
  it("prints an unsigned transaction: hash, sigs (key → null), cmd", async () => {
    const run = await runWeft(["-u", fixture("unsigned-two.yaml")]);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith("hash: ")).toBe(true);
    const tx = parseYaml(run.stdout) as { hash: string; sigs: Record<string, null>; cmd: string };
    expect(Object.keys(tx)).toEqual(["hash", "sigs", "cmd"]);
    expect(tx.sigs).toEqual({ [ALICE]: null, [BOB]: null });
    expect(tx.hash).toBe(requestKeyOf(tx.cmd));
    const payload = parseCommand({ cmd: tx.cmd, hash: tx.hash, sigs: [] }).payload;
    expect(payload.signers).toEqual([
      // Parsed exactly: the amount keeps its text `1.0`.
      {
        pubKey: ALICE,
        clist: [{ name: "coin.TRANSFER", args: ["alice", "bob", JsonNumber.of("1.0")] }],
      },
      { pubKey: BOB, clist: [{ name: "coin.GAS", args: [] }] },
    ]);
    expect(tx.cmd).toContain('"args":["alice","bob",1.0]');
  });

  it("with -c prints the condensed form without cmd", async () => {
    const full = parseYaml((await runWeft(["-u", fixture("unsigned-two.yaml")])).stdout) as object;
    const run = await runWeft(["-u", fixture("unsigned-two.yaml"), "-c"]);
    expect(run.code).toBe(0);
    const tx = parseYaml(run.stdout) as Record<string, unknown>;
    expect(Object.keys(tx)).toEqual(["hash", "sigs"]);
    expect(tx).toEqual({
      hash: (full as { hash: string }).hash,
      sigs: (full as { sigs: object }).sigs,
    });
  });

  it("prepares unsigned continuations", async () => {
    const run = await runWeft(["--unsigned", fixture("unsigned-cont.yaml")]);
    expect(run.code).toBe(0);
    const tx = parseYaml(run.stdout) as { hash: string; cmd: string; sigs: object };
    expect(tx.sigs).toEqual({ [BOB]: null });
    expect(parseCommand({ ...tx, sigs: [] }).payload.payload).toMatchObject({ cont: { step: 1 } });
  });
});

describe("[cli] bad request files: exit 1, file and field named, stdout empty", () => {
  it.each([
    ["-a", "bad/unknown-key.yaml", "publicMetta", "unknown key"],
    ["-a", "bad/unknown-meta-key.yaml", "publicMeta.gaslimit", "unknown key"],
    ["-a", "bad/missing-code.yaml", "code", "missing"],
    ["-a", "bad/code-and-codefile.yaml", "codeFile", "not both"],
    ["-a", "bad/missing-codefile.yaml", "codeFile", "no such file"],
    ["-a", "bad/not-yaml.txt", "line 3", "not valid YAML"],
    ["-a", "bad/bad-gasprice.yaml", "publicMeta.gasPrice", "decimal"],
    ["-a", "bad/bad-gaslimit.yaml", "publicMeta.gasLimit", "integer"],
    ["-a", "bad/negative-gasprice.yaml", "publicMeta.gasPrice", "decimal >= 0"],
    ["-u", "bad/zero-gaslimit.yaml", "publicMeta.gasLimit", "integer >= 1"],
    ["-a", "bad/zero-ttl.yaml", "publicMeta.ttl", "integer >= 1"],
    ["-u", "bad/negative-creationtime.yaml", "publicMeta.creationTime", "integer >= 0"],
    ["-a", "bad/bad-type.yaml", "type", "exec or cont"],
    ["-a", "bad/cont-missing-step.yaml", "step", "missing"],
    ["-a", "bad/cont-with-code.yaml", "code", "exec request"],
    ["-a", "bad/key-mismatch.yaml", "keyPairs[0].public", "not the public key"],
    ["-a", "bad/short-secret.yaml", "keyPairs[0].secret", "32 bytes"],
    ["-a", "bad/signers-in-a.yaml", "signers", "weft -u"],
    ["-u", "bad/keypairs-in-u.yaml", "keyPairs", "signers"],
    ["-u", "bad/secret-in-signers.yaml", "signers[0].secret", "public keys only"],
    ["-a", "bad/bad-data-file.yaml", "dataFile", "not valid JSON"],
    ["-a", "bad/data-not-object.yaml", "data", "JSON object"],
    ["-u", "bad/cap-without-name.yaml", "signers[0].caps[0].name", "missing"],
    ["-a", "bad/no-such-file.yaml", "", "no such file"],
    // A number with a comma is refused, never read as text, 1.5 or two numbers (issue 36).
    ["-a", "bad/comma-amount.txt", "data.amount", "'1,500' has a comma"],
    ["-u", "bad/comma-cap-arg.txt", "signers[0].caps[0].args[2]", "'1,500' has a comma"],
    ["-a", "bad/comma-gasprice.txt", "publicMeta.gasPrice", "'0,00000001' has a comma"],
  ])("%s %s → %s", async (flag, file, field, text) => {
    const run = await runWeft([flag, fixture(file)]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(fixture(file));
    expect(run.stderr).toContain(field === "" ? fixture(file) : `: ${field}`);
    expect(run.stderr).toContain(text);
    expect(run.stderr.split("\n").filter((l) => l !== "")).toHaveLength(1);
  });

  it.each([
    [["-a"]],
    [["-l"]],
    [["-g", "-l"]],
    [["-a", "x.yaml", "-c"]],
    [["-u", "x.yaml", "-l"]],
    [["-a", "x.yaml", "-u", "y.yaml"]],
    [["-g", "extra"]],
  ])("usage error %j exits 2 with usage on stderr", async (argv) => {
    const run = await runWeft(argv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("Usage:");
  });

  it("an unknown flag is an unknown command", async () => {
    const run = await runWeft(["-x"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("unknown command '-x'");
  });
});
