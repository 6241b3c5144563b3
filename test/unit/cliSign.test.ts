/**
 * `weft add-sig` and `weft combine-sigs`: the full signing round trips (two
 * signers signing from two separate key files, sequentially or in parallel,
 * full and condensed forms), and every bad input exiting non-zero with the
 * file and field named and nothing on stdout.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse as parseYaml, stringify } from "yaml";
import { referenceRequestKeyOf } from "../../src-node/command/requestKeyCheck.ts";
import { verifyBytes } from "../../src-node/crypto/ed25519.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { fixture, runWeft, tempDir } from "./cliHarness.ts";

const { parseCommand, requestKeyBytesOf, requestKeyOf, verifyCommandSignatures } = nodeCommands;

const ALICE = "19fdf052dc5e40a83d48174a64bdb0c16b830d7cd3dbc45f55a9647243b77089";
const BOB = "63be59b80d35ac26034f2408c65e2bfba638640cd52df2ecc2aa99c21c3d7b25";
const CAROL = "300d2a6e558f0188bf64bf63ab0477abbf7e1477261bde9429693292d7a556de";
const aliceKey = fixture("keys/alice.yaml");
const bobKey = fixture("keys/bob.yaml");
const carolKey = fixture("keys/carol.yaml");

type Tx = { hash: string; sigs: Record<string, string | null>; cmd?: string };
type Cmd = {
  cmd: string;
  hash: string;
  sigs: { sig: string; scheme: string; pubKey: string; addr: string }[];
};

async function ok(argv: string[], stdin = ""): Promise<string> {
  const run = await runWeft(argv, stdin);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

async function unsigned(file = "unsigned-two.yaml", ...flags: string[]): Promise<string> {
  return ok(["-u", fixture(file), ...flags]);
}

/** The final /send body is valid: one command, hash = request key, every signature verifies. */
function expectFinal(stdout: string, signers: string[]): Cmd {
  const body = JSON.parse(stdout) as { cmds: Cmd[] };
  expect(body.cmds).toHaveLength(1);
  const c = body.cmds[0] as Cmd;
  expect(c.hash).toBe(requestKeyOf(c.cmd));
  expect(c.sigs.map((s) => s.pubKey)).toEqual(signers);
  for (const s of c.sigs) {
    expect(s.scheme).toBe("ED25519");
    expect(verifyBytes(requestKeyBytesOf(c.cmd), s.sig, s.pubKey)).toBe(true);
  }
  const parsed = parseCommand(c);
  verifyCommandSignatures(parsed);
  return c;
}

describe("[cli] add-sig and combine-sigs round trips", () => {
  it("two signers sign in parts from separate key files; combine-sigs gives the final JSON", async () => {
    const tx = await unsigned();
    const a = await ok(["add-sig", aliceKey], tx);
    const b = await ok(["add-sig", bobKey], tx);
    // Partly signed: still YAML, with the one signature.
    const aTx = parseYaml(a) as Tx;
    expect(aTx.sigs[BOB]).toBeNull();
    expect(aTx.sigs[ALICE]).toMatch(/^[0-9a-f]{128}$/);
    expect(aTx.cmd).toBe((parseYaml(tx) as Tx).cmd);
    const t = tempDir();
    const out = await ok(["combine-sigs", t.write("a.yaml", a), t.write("b.yaml", b)]);
    const c = expectFinal(out, [ALICE, BOB]);
    expect(c.cmd).toBe((parseYaml(tx) as Tx).cmd);
    // The order of files does not matter.
    expect(await ok(["combine-sigs", t.write("b2.yaml", b), t.write("a2.yaml", a)])).toBe(out);
  });

  it("signs a transaction hashed the reference's way (Blake2b-256), as its tools write them", async () => {
    const own = parseYaml(await unsigned()) as Tx;
    const cmd = own.cmd as string;
    const hash = referenceRequestKeyOf(cmd);
    const tx = stringify({ ...own, hash });
    const final = await ok(["add-sig", bobKey], await ok(["add-sig", aliceKey], tx));
    const c = (JSON.parse(final) as { cmds: Cmd[] }).cmds[0] as Cmd;
    expect(c.hash).toBe(hash);
    for (const s of c.sigs)
      expect(verifyBytes(Buffer.from(hash, "base64url"), s.sig, s.pubKey)).toBe(true);
    verifyCommandSignatures(parseCommand(c));
  });

  it("signing one after the other ends in the final JSON; -l gives the /local command", async () => {
    const tx = await unsigned();
    const a = await ok(["add-sig", aliceKey], tx);
    const final = await ok(["add-sig", bobKey], a);
    expectFinal(final, [ALICE, BOB]);
    const local = JSON.parse(await ok(["add-sig", bobKey, "-l"], a)) as Cmd;
    expect(local).toEqual((JSON.parse(final) as { cmds: Cmd[] }).cmds[0]);
    // Both keys at once, in any order.
    expect(await ok(["add-sig", bobKey, aliceKey], tx)).toBe(final);
  });

  it("reads transactions as JSON too", async () => {
    const tx = JSON.stringify(parseYaml(await unsigned()));
    const a = await ok(["add-sig", aliceKey], tx);
    expect((parseYaml(a) as Tx).sigs[ALICE]).toMatch(/^[0-9a-f]{128}$/);
    const t = tempDir();
    const b = t.write("b.json", JSON.stringify(parseYaml(await ok(["add-sig", bobKey], tx))));
    expectFinal(await ok(["combine-sigs", t.write("a.yaml", a), b]), [ALICE, BOB]);
  });

  it("reads sigs as signature objects: the tool's own -l output, and a command's bare {sig} by signer index", async () => {
    const tx = await unsigned();
    const t = tempDir();
    const final = await ok(["add-sig", aliceKey, bobKey, "-l"], tx);
    // Its own /local command (sig, scheme, pubKey, addr) reads back as a complete transaction.
    expect(await ok(["combine-sigs", t.write("local.json", final)])).toBe(
      await ok(["add-sig", aliceKey, bobKey], tx),
    );
    // A partly signed command in the reference shape: sigs[i] belongs to signers[i].
    const c = JSON.parse(final) as Cmd;
    const partial = { hash: c.hash, sigs: [{ sig: c.sigs[0]?.sig }, { sig: null }], cmd: c.cmd };
    const a = await ok(["add-sig", bobKey], JSON.stringify(partial));
    expectFinal(a, [ALICE, BOB]);
    const tooMany = { ...partial, sigs: [...partial.sigs, { sig: null }] };
    const run = await runWeft(["add-sig", bobKey], JSON.stringify(tooMany));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("weft: <stdin>: sigs[2]: cmd has 2 signer(s)");
  });

  it("signs an unsigned continuation to a final command", async () => {
    const final = await ok(["add-sig", bobKey], await unsigned("unsigned-cont.yaml"));
    const c = expectFinal(final, [BOB]);
    expect(parseCommand(c).payload.payload).toMatchObject({ cont: { step: 1, rollback: false } });
  });

  it("a combined result is also a valid input to add-sig and combine-sigs", async () => {
    const tx = await unsigned();
    const t = tempDir();
    const a = t.write("a.yaml", await ok(["add-sig", aliceKey], tx));
    // combine-sigs with one partly signed file prints it back as YAML.
    const again = await ok(["combine-sigs", a]);
    expect(parseYaml(again)).toEqual(parseYaml(await ok(["add-sig", aliceKey], tx)));
  });
});

describe("[cli] condensed cold-wallet form", () => {
  it("add-sig keeps a condensed input condensed; combine-sigs merges it with a file that has cmd", async () => {
    const full = await unsigned();
    const condensed = await unsigned("unsigned-two.yaml", "-c");
    expect(Object.keys(parseYaml(condensed) as object)).toEqual(["hash", "sigs"]);
    const run = await runWeft(["add-sig", aliceKey], condensed);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("without cmd");
    const aTx = parseYaml(run.stdout) as Tx;
    expect(Object.keys(aTx)).toEqual(["hash", "sigs"]);
    // Even fully signed, a condensed transaction stays YAML: there is no cmd to send.
    const both = await ok(["add-sig", bobKey], run.stdout);
    expect(Object.keys(parseYaml(both) as object)).toEqual(["hash", "sigs"]);
    const t = tempDir();
    const out = await ok([
      "combine-sigs",
      t.write("full.yaml", full),
      t.write("signed.yaml", both),
    ]);
    expectFinal(out, [ALICE, BOB]);
    // Condensed parts from each signer plus the unsigned full file.
    const bOnly = await ok(["add-sig", bobKey], condensed);
    const out2 = await ok([
      "combine-sigs",
      t.write("a.yaml", run.stdout),
      t.write("b.yaml", bOnly),
      t.write("full2.yaml", full),
    ]);
    expect(out2).toBe(out);
  });

  it("add-sig -c condenses a full input; combine-sigs -c condenses its output", async () => {
    const full = await unsigned();
    const a = await ok(["add-sig", aliceKey, "-c"], full);
    expect(Object.keys(parseYaml(a) as object)).toEqual(["hash", "sigs"]);
    const t = tempDir();
    const both = await ok([
      "combine-sigs",
      "-c",
      t.write("a.yaml", a),
      t.write("b.yaml", await ok(["add-sig", bobKey], full)),
    ]);
    const tx = parseYaml(both) as Tx;
    expect(Object.keys(tx)).toEqual(["hash", "sigs"]);
    expect(Object.values(tx.sigs).every((s) => typeof s === "string")).toBe(true);
  });

  it("combine-sigs of condensed files alone stays condensed YAML", async () => {
    const condensed = await unsigned("unsigned-two.yaml", "-c");
    const t = tempDir();
    const out = await ok([
      "combine-sigs",
      t.write("a.yaml", await ok(["add-sig", aliceKey], condensed)),
      t.write("b.yaml", await ok(["add-sig", bobKey], condensed)),
    ]);
    const tx = parseYaml(out) as Tx;
    expect(tx.cmd).toBeUndefined();
    expect(Object.keys(tx.sigs)).toEqual([ALICE, BOB]);
    expect(Object.values(tx.sigs).every((s) => typeof s === "string")).toBe(true);
  });
});

/** A bad run: exit 1, nothing on stdout, one stderr line naming the file and field. */
function expectBad(
  run: { code: number; stdout: string; stderr: string },
  file: string,
  field: string,
  text: string,
) {
  expect(run.code).toBe(1);
  expect(run.stdout).toBe("");
  expect(run.stderr).toContain(`${file}: ${field}`);
  expect(run.stderr).toContain(text);
}

describe("[cli] add-sig and combine-sigs refuse bad input", () => {
  it("a key that matches no signer", async () => {
    const run = await runWeft(["add-sig", aliceKey, carolKey], await unsigned());
    expectBad(run, carolKey, "public", `key ${CAROL} is not a signer`);
  });

  it("a hash that does not match cmd", async () => {
    const tx = parseYaml(await unsigned()) as Tx;
    const tampered = stringify({ ...tx, cmd: (tx.cmd ?? "").replace("two-signers", "three") });
    expectBad(
      await runWeft(["add-sig", aliceKey], tampered),
      "<stdin>",
      "hash",
      "does not match cmd",
    );
    const t = tempDir();
    const f = t.write("t.yaml", tampered);
    expectBad(await runWeft(["combine-sigs", f]), f, "hash", "does not match cmd");
  });

  it("a signature that does not verify", async () => {
    const tx = parseYaml(await unsigned()) as Tx;
    const wrong = stringify({ ...tx, sigs: { ...tx.sigs, [ALICE]: "11".repeat(64) } });
    expectBad(
      await runWeft(["add-sig", bobKey], wrong),
      "<stdin>",
      `sigs.${ALICE}`,
      "does not verify",
    );
    const t = tempDir();
    const f = t.write("w.yaml", wrong);
    expectBad(await runWeft(["combine-sigs", f]), f, `sigs.${ALICE}`, "does not verify");
  });

  it("combine-sigs of different transactions", async () => {
    const t = tempDir();
    const a = t.write("a.yaml", await ok(["add-sig", aliceKey], await unsigned()));
    const request = readFileSync(fixture("unsigned-two.yaml"), "utf8").replace(
      "two-signers",
      "other",
    );
    const other = await ok(["-u", t.write("other.yaml", request)]);
    const b = t.write("b.yaml", await ok(["add-sig", bobKey], other));
    expectBad(await runWeft(["combine-sigs", a, b]), b, "hash", "different transactions");
    // A final /send body is not a transaction file.
    const final = t.write(
      "final.json",
      await ok(["add-sig", bobKey], await unsigned("unsigned-cont.yaml")),
    );
    expectBad(await runWeft(["combine-sigs", final]), final, "cmds", "already a final API request");
  });

  it("combine-sigs with a condensed file naming a key that is not a signer", async () => {
    const tx = parseYaml(await unsigned()) as Tx;
    const t = tempDir();
    const full = t.write("full.yaml", stringify(tx));
    const stray = t.write("stray.yaml", stringify({ hash: tx.hash, sigs: { [CAROL]: null } }));
    expectBad(await runWeft(["combine-sigs", full, stray]), stray, `sigs.${CAROL}`, "not a signer");
  });

  it("a sigs entry that is not a signer of cmd", async () => {
    const tx = parseYaml(await unsigned()) as Tx;
    const extra = stringify({ ...tx, sigs: { ...tx.sigs, [CAROL]: null } });
    expectBad(
      await runWeft(["add-sig", aliceKey], extra),
      "<stdin>",
      `sigs.${CAROL}`,
      "not a signer of cmd",
    );
  });

  it("bad YAML, unknown keys, missing fields, bad fields on standard input", async () => {
    const tx = parseYaml(await unsigned()) as Tx;
    expectBad(
      await runWeft(["add-sig", aliceKey], "hash: [\n"),
      "<stdin>",
      "line",
      "not valid YAML",
    );
    expectBad(
      await runWeft(["add-sig", aliceKey], stringify({ ...tx, hsh: 1 })),
      "<stdin>",
      "hsh",
      "unknown key",
    );
    const { hash: _h, ...noHash } = tx;
    expectBad(
      await runWeft(["add-sig", aliceKey], stringify(noHash)),
      "<stdin>",
      "hash",
      "missing",
    );
    const { sigs: _s, ...noSigs } = tx;
    expectBad(
      await runWeft(["add-sig", aliceKey], stringify(noSigs)),
      "<stdin>",
      "sigs",
      "missing",
    );
    expectBad(
      await runWeft(["add-sig", aliceKey], stringify({ ...tx, hash: "abc" })),
      "<stdin>",
      "hash",
      "43 characters",
    );
    expectBad(
      await runWeft(
        ["add-sig", aliceKey],
        stringify({ ...tx, sigs: { [ALICE]: "zz", [BOB]: null } }),
      ),
      "<stdin>",
      `sigs.${ALICE}`,
      "hex",
    );
    expectBad(await runWeft(["add-sig", aliceKey], ""), "<stdin>", "", "mapping");
  });

  it("bad key files", async () => {
    const tx = await unsigned();
    const t = tempDir();
    const mismatch = t.write(
      "k.yaml",
      `public: ${BOB}\nsecret: ${"4bd8ecbd515c35da71997fec5611bf387616167bec8a4562b65b826fc16b22c9"}\n`,
    );
    expectBad(await runWeft(["add-sig", mismatch], tx), mismatch, "public", "not the public key");
    const noSecret = t.write("n.yaml", `public: ${ALICE}\n`);
    expectBad(await runWeft(["add-sig", noSecret], tx), noSecret, "secret", "missing");
    const extra = t.write("e.yaml", `public: ${ALICE}\nsecrets: x\n`);
    expectBad(await runWeft(["add-sig", extra], tx), extra, "secrets", "unknown key");
    const missing = `${t.dir}/none.yaml`;
    expectBad(await runWeft(["add-sig", missing], tx), missing, "", "no such file");
  });

  it("usage errors exit 2", async () => {
    for (const argv of [
      ["add-sig"],
      ["combine-sigs"],
      ["add-sig", "-x", aliceKey],
      ["combine-sigs", "-l"],
    ]) {
      const run = await runWeft(argv, await unsigned());
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("Usage: weft");
    }
  });
});
