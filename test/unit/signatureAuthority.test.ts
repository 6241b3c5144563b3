/**
 * A signature speaks only for its own key, as a property (issue 31): for random commands with
 * random signer lists (keys of the accounts involved, a stranger's key, their capitalised
 * texts; `addr` absent, equal, another signer's key or a case variant; signatures by the
 * signer's key, by another key, over another command, or none), run through the node's real
 * `/local?preflight=true` path (parse, signature verification, metadata rules, gas purchase,
 * the transfer, gas redemption) on a test-singleton chain:
 *
 * - a transfer out of `sender01` (guarded by key K1) succeeds only if some signer's `pubKey` is
 *   K1, exactly, with a valid signature in its slot; the gas paid by the sender likewise;
 * - a signer whose `addr` is not its `pubKey` gets the whole command refused;
 * - without signature verification (`signatureVerification=false`), the transfer still needs a
 *   signer whose `pubKey` is K1: `addr` never stands for a key.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Command } from "../../src-node/command/commandTypes.ts";
import { JsonNumber, stringifyJson } from "../../src-node/command/exactJson.ts";
import { NodeError } from "../../src-node/errors/nodeError.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { devAccount } from "../../src-node/genesis/devAccounts.ts";
import { type ExecChain, openExecChain } from "../support/execChain.ts";

const K0 = devAccount(0);
const K1 = devAccount(1);
const K2 = devAccount(2);
/** A stranger: RFC 8032's first test key. */
const STRANGER_SECRET = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
const STRANGER = {
  publicKey: nodeCommands.publicKeyOf(STRANGER_SECRET),
  secretKey: STRANGER_SECRET,
};
const KEYS = [K0, K1, K2, STRANGER];
const secretOf = new Map(KEYS.map((k) => [k.publicKey, k.secretKey]));

/** A key's text: as published, or in capitals (another text for the same bytes). */
const keyText = fc.record({ key: fc.constantFrom(...KEYS), upper: fc.boolean() });
const textOf = (k: { key: { publicKey: string }; upper: boolean }) =>
  k.upper ? k.key.publicKey.toUpperCase() : k.key.publicKey;

type AddrChoice = { kind: "none" } | { kind: "own" } | { kind: "key"; text: string };
type SigChoice = "own" | "otherKey" | "otherCommand" | "none";

const signerArb = fc.record({
  pubKey: keyText.map(textOf),
  addr: fc.oneof(
    { weight: 3, arbitrary: fc.constant<AddrChoice>({ kind: "none" }) },
    { weight: 2, arbitrary: fc.constant<AddrChoice>({ kind: "own" }) },
    {
      weight: 2,
      arbitrary: keyText.map((k): AddrChoice => ({ kind: "key", text: textOf(k) })),
    },
  ),
  caps: fc.constantFrom("unrestricted", "gas", "transfer", "transfer+gas"),
  sig: fc.constantFrom<SigChoice>("own", "own", "own", "otherKey", "otherCommand", "none"),
});

const commandArb = fc.record({
  sender: fc.constantFrom("sender00", "sender01"),
  signers: fc.array(signerArb, { minLength: 1, maxLength: 4 }),
  /** Half the commands also carry the honest signers, so that successes happen too. */
  honest: fc.boolean(),
  nonce: fc.nat(),
});
type CommandCase = typeof commandArb extends fc.Arbitrary<infer T> ? T : never;
type SignerCase = CommandCase["signers"][number];

const TRANSFER = {
  name: "coin.TRANSFER",
  args: ["sender01", "sender02", JsonNumber.of("1.0") as JsonNumber],
};
const GAS = { name: "coin.GAS", args: [] };

function clistOf(caps: SignerCase["caps"]) {
  if (caps === "unrestricted") return [];
  if (caps === "gas") return [GAS];
  if (caps === "transfer") return [TRANSFER];
  return [TRANSFER, GAS];
}

function build(c: CommandCase, nowS: number): { command: Command; signers: SignerCase[] } {
  const signers: SignerCase[] = [...c.signers];
  if (c.honest) {
    for (const key of c.sender === "sender01" ? [K1] : [K0, K1]) {
      signers.push({
        pubKey: key.publicKey,
        addr: { kind: "none" },
        caps: "transfer+gas",
        sig: "own",
      });
    }
  }
  const cmd = stringifyJson({
    payload: { exec: { code: '(coin.transfer "sender01" "sender02" 1.0)', data: {} } },
    meta: {
      chainId: "0",
      sender: c.sender,
      gasLimit: 1500,
      gasPrice: JsonNumber.of("0.00000001") as JsonNumber,
      ttl: 3600,
      creationTime: nowS - 60,
    },
    signers: signers.map((s) => ({
      pubKey: s.pubKey,
      ...(s.addr.kind === "none" ? {} : { addr: s.addr.kind === "own" ? s.pubKey : s.addr.text }),
      clist: clistOf(s.caps),
    })),
    networkId: "test-singleton",
    nonce: `property ${c.nonce}`,
  });
  const hash = nodeCommands.requestKeyOf(cmd);
  const elsewhere = nodeCommands.requestKeyOf(`${cmd} `);
  const sigs = signers.map((s, i) => {
    const own = secretOf.get(s.pubKey.toLowerCase()) as string;
    const other = KEYS[(KEYS.findIndex((k) => k.secretKey === own) + 1 + i) % KEYS.length];
    const by =
      s.sig === "own" || s.sig === "otherCommand"
        ? own
        : s.sig === "otherKey"
          ? other?.secretKey
          : undefined;
    if (by === undefined) return { sig: "" };
    return {
      sig: nodeCommands.signRequestKey(s.sig === "otherCommand" ? elsewhere : hash, by).sig,
    };
  });
  return { command: { cmd, hash, sigs }, signers };
}

/** Whether the signature in slot `i` is a valid signature by that signer's key (checked apart). */
function validSlot(command: Command, i: number, pubKey: string): boolean {
  const sig = command.sigs[i]?.sig ?? "";
  return (
    sig !== "" &&
    nodeCommands.crypto.verify(nodeCommands.requestKeyBytesOf(command.cmd), sig, pubKey)
  );
}

type Answer = { kind: "refused"; code: string } | { kind: "result"; status: string };

async function preflight(x: ExecChain, command: Command, verify: boolean): Promise<Answer> {
  try {
    const text = await x.commands.local(0, JSON.parse(JSON.stringify(command)), {
      preflight: true,
      signatureVerification: verify,
      rewindDepth: 0,
    });
    const r = JSON.parse(text) as { preflightResult: { result: { status: string } } };
    return { kind: "result", status: r.preflightResult.result.status };
  } catch (e) {
    if (!(e instanceof NodeError)) throw e;
    return { kind: "refused", code: e.code };
  }
}

describe("[command] a signature speaks only for its own key (property)", () => {
  let x: ExecChain;
  beforeAll(async () => {
    x = openExecChain();
    await x.mine(0);
  });
  afterAll(() => x.close());

  it("no transfer or gas payment is attributed to a key without a valid signature by that exact key", async () => {
    const seen = { verifiedSuccess: 0, unverifiedSuccess: 0, addressRefused: 0 };
    await fc.assert(
      fc.asyncProperty(commandArb, async (c) => {
        const { command, signers } = build(c, Math.floor(Date.now() / 1000));
        const signedBy = (key: string) =>
          signers.some((s, i) => s.pubKey === key && validSlot(command, i, s.pubKey));
        const senderKey = c.sender === "sender01" ? K1.publicKey : K0.publicKey;

        const verified = await preflight(x, command, true);
        const impersonating = signers.some(
          (s) => s.addr.kind === "key" && s.addr.text !== s.pubKey,
        );
        if (impersonating) {
          // Refused; for the address when no earlier signer's slot fails first.
          expect(verified.kind).toBe("refused");
          if (verified.kind === "refused" && verified.code === "CMD_ADDRESS_MISMATCH") {
            seen.addressRefused++;
          }
        }
        if (verified.kind === "result" && verified.status === "success") {
          seen.verifiedSuccess++;
          expect(signedBy(K1.publicKey), "the transfer out of sender01").toBe(true);
          expect(signedBy(senderKey), "the gas paid by the sender").toBe(true);
        }

        const unverified = await preflight(x, command, false);
        if (unverified.kind === "result" && unverified.status === "success") {
          seen.unverifiedSuccess++;
          expect(signers.some((s) => s.pubKey === K1.publicKey)).toBe(true);
          expect(signers.some((s) => s.pubKey === senderKey)).toBe(true);
        }
      }),
      { numRuns: 120, seed: 31 },
    );
    // The property is not vacuous: honest commands succeed, impersonating ones are refused.
    expect(seen.verifiedSuccess).toBeGreaterThan(5);
    expect(seen.unverifiedSuccess).toBeGreaterThan(5);
    expect(seen.addressRefused).toBeGreaterThan(5);
  });
});
