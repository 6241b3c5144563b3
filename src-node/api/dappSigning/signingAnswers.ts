/**
 * What Chainweaver's signing API answers, per endpoint (docs/dapp-signing.md), and the checks
 * of what the page answers before it reaches a dapp:
 * - `/v1/quicksign` (KIP-0015): `{responses: [{commandSigData, outcome}]}`; a refusal
 *   `{error: {type: "reject"}}`, an ignored request `{error: {type: "other", msg}}` (200, as
 *   Chainweaver: the error is in the body); an empty list `{error: {type: "emptyList"}}` and a
 *   malformed one `{error: {type: "other", msg}}` with 400.
 * - `/v1/sign` (signing-api v1): `{body: {cmd, hash, sigs}, chainId}`; a refusal, a timeout or
 *   a stop: 409 with a text body, as Chainweaver.
 * Every signature the page returns must verify for its command's request key, which here is
 * the reference ledger's (Blake2b-256 of `cmd`, command/requestKeyCheck.ts): the key every dapp's
 * client computes and submits the command under, and the node takes (docs/commands.md).
 * @module
 */
import { CommandError } from "../../command/errors.ts";
import { requestKeyBytes } from "../../command/requestKeyBytes.ts";
import { referenceRequestKeyOf } from "../../command/requestKeyCheck.ts";
import { checkSignerAddresses } from "../../command/verifySignatures.ts";
import type { Result } from "../../errors/result.ts";
import { nodeCommands } from "../../exec/nodeCommands.ts";
import { AppError, AppErrorCode } from "../errors.ts";
import type { QuicksignBody, SignBody } from "./signingApiSchemas.ts";
import type { AnswerRules, HttpAnswer } from "./signRequestQueue.ts";

/** A quicksign command as the page sees it: its request key worked out here. */
export type CheckedCmdSigData = {
  readonly cmd: string;
  readonly hash: string;
  readonly sigs: readonly { readonly pubKey: string; readonly sig: string | null }[];
};

function badAnswer(field: string, reason: string): AppError {
  return new AppError({ code: AppErrorCode.BadRequest, field, reason }, `${field}: ${reason}`);
}

const verifies = (hash: string, sig: string, pubKey: string) =>
  nodeCommands.crypto.verify(requestKeyBytes(hash), sig, pubKey);

export const quicksignError = (status: number, error: Record<string, string>): HttpAnswer => ({
  status,
  json: { error },
});

/**
 * A quicksign body's commands, parsed (each `cmd` a command, each listed key one of its
 * signers, each signature given valid), or the API's 400 answer naming what is wrong.
 */
export function checkQuicksign(body: QuicksignBody): Result<CheckedCmdSigData[], HttpAnswer> {
  const list = body.cmdSigDatas ?? body.cmds ?? [];
  const field = body.cmdSigDatas === undefined ? "cmds" : "cmdSigDatas";
  if (list.length === 0) return { ok: false, error: quicksignError(400, { type: "emptyList" }) };
  const other = (msg: string) => ({
    ok: false as const,
    error: quicksignError(400, { type: "other", msg }),
  });
  const items: CheckedCmdSigData[] = [];
  for (const [i, item] of list.entries()) {
    const hash = referenceRequestKeyOf(item.cmd);
    let signers: string[];
    try {
      const parsed = nodeCommands.parseCommand({ cmd: item.cmd, hash, sigs: [] });
      checkSignerAddresses(parsed.payload.signers);
      signers = parsed.payload.signers.map((s) => s.pubKey.toLowerCase());
    } catch (e) {
      if (!(e instanceof CommandError)) throw e;
      return other(`${field}[${i}].cmd: not a command (${e.message})`);
    }
    const sigs: { pubKey: string; sig: string | null }[] = [];
    for (const [j, s] of item.sigs.entries()) {
      const pubKey = s.pubKey.toLowerCase();
      const where = `${field}[${i}].sigs[${j}]`;
      if (!signers.includes(pubKey)) return other(`${where}.pubKey: not a signer of the command`);
      if (sigs.some((x) => x.pubKey === pubKey)) return other(`${where}.pubKey: listed twice`);
      const sig = s.sig === undefined || s.sig === null ? null : s.sig.toLowerCase();
      if (sig !== null && !verifies(hash, sig, pubKey)) {
        return other(`${where}.sig: does not verify for the command`);
      }
      sigs.push({ pubKey, sig });
    }
    items.push({ cmd: item.cmd, hash, sigs });
  }
  return { ok: true, value: items };
}

const SIG = /^[0-9a-f]{128}$/;

function readSig(v: unknown, field: string): string | null {
  if (v === null) return null;
  if (typeof v !== "string" || !SIG.test(v.toLowerCase())) {
    throw badAnswer(field, "expected a signature (128 hex characters) or null");
  }
  return v.toLowerCase();
}

/** The answers of a quicksign request over `items`. */
export function quicksignRules(items: readonly CheckedCmdSigData[]): AnswerRules {
  return {
    signed: (answer) => {
      if (answer.sigs.length !== items.length) {
        throw badAnswer("sigs", `expected ${items.length} list(s), one per command`);
      }
      const responses = items.map((item, i) => {
        const given = answer.sigs[i];
        if (!Array.isArray(given) || given.length !== item.sigs.length) {
          throw badAnswer(`sigs.${i}`, `expected ${item.sigs.length} entries, one per signer`);
        }
        let added = false;
        const sigs = item.sigs.map((s, j) => {
          const sig = readSig(given[j], `sigs.${i}.${j}`);
          if (s.sig !== null) return s;
          if (sig === null) return s;
          if (!verifies(item.hash, sig, s.pubKey)) {
            throw badAnswer(`sigs.${i}.${j}`, `does not verify for ${s.pubKey}`);
          }
          added = true;
          return { pubKey: s.pubKey, sig };
        });
        return {
          commandSigData: { cmd: item.cmd, sigs },
          outcome: added ? { result: "success", hash: item.hash } : { result: "noSig" },
        };
      });
      return { status: 200, json: { responses } };
    },
    refused: () => quicksignError(200, { type: "reject" }),
    timedOut: (seconds) =>
      quicksignError(200, {
        type: "other",
        msg: `timed out: nobody answered the request in Weft within ${seconds} s`,
      }),
    closed: () =>
      quicksignError(200, {
        type: "other",
        msg: "Weft's signing API stopped before the request was answered",
      }),
  };
}

const text = (status: number, body: string): HttpAnswer => ({ status, text: body });

/** The answers of a `/v1/sign` request: the page builds the command, signed by every signer. */
export function signRules(body: SignBody): AnswerRules {
  return {
    signed: (answer) => {
      if (typeof answer.cmd !== "string") throw badAnswer("cmd", "the command built and signed");
      const cmd = answer.cmd;
      const hash = referenceRequestKeyOf(cmd);
      let payload: ReturnType<typeof nodeCommands.parseCommand>["payload"];
      try {
        payload = nodeCommands.parseCommand({ cmd, hash, sigs: [] }).payload;
        checkSignerAddresses(payload.signers);
      } catch (e) {
        if (!(e instanceof CommandError)) throw e;
        throw badAnswer("cmd", `not a command (${e.message})`);
      }
      const p = payload.payload;
      if (!("exec" in p) || p.exec.code !== body.code) {
        throw badAnswer("cmd", "its code is not the code the dapp sent");
      }
      if (answer.sigs.length !== payload.signers.length) {
        throw badAnswer("sigs", `expected ${payload.signers.length} signatures, one per signer`);
      }
      const sigs = payload.signers.map((s, i) => {
        const sig = readSig(answer.sigs[i], `sigs.${i}`);
        if (sig === null)
          throw badAnswer(
            `sigs.${i}`,
            "every signer must sign (/v1/sign answers a complete command)",
          );
        if (!verifies(hash, sig, s.pubKey.toLowerCase())) {
          throw badAnswer(`sigs.${i}`, `does not verify for ${s.pubKey}`);
        }
        return { sig };
      });
      return { status: 200, json: { body: { cmd, hash, sigs }, chainId: payload.meta.chainId } };
    },
    refused: () => text(409, "Cancelled: the user refused the request in Weft"),
    timedOut: (seconds) =>
      text(409, `Timed out: nobody answered the request in Weft within ${seconds} s`),
    closed: () =>
      text(409, "Cancelled: Weft's signing API stopped before the request was answered"),
  };
}
