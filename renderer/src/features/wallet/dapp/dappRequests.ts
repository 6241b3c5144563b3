/**
 * Dapps' signing requests as the wallet page reads them (docs/dapp-signing.md): the node's
 * answers of `GET /app/api/wallet/dapp-signing` and `GET /app/api/wallet/sign-requests`
 * parsed, and each request turned into the transactions the "Sign a transaction" review
 * shows (`SignRequest`, sign/signRequest.ts): a quicksign's commands as SigData, read with
 * the same strict reader; a `/v1/sign` request built into a command here, from the dapp's
 * code, data and capabilities and the wallet's defaults for what it left out. The `/v1/sign`
 * body is read from its exact JSON text (the node's `text`), so `1.0` stays a decimal and a
 * large integer keeps every digit in the command. Both are signed
 * under the reference ledger's request key (Blake2b-256 of `cmd`), which the node hands them
 * (quicksign) or which is computed here (`/v1/sign`): the key dapps submit the command under.
 * @module
 */
import { cmdOf } from "../../../../../src-node/command/buildCommand.ts";
import type {
  Capability,
  CommandPayload,
  Signer,
} from "../../../../../src-node/command/commandTypes.ts";
import { decimalText } from "../../../../../src-node/command/decimalText.ts";
import {
  JsonNumber,
  type JsonObject,
  type JsonValue,
  readJsonExact,
} from "../../../../../src-node/command/exactJson.ts";
import { referenceRequestKeyOf } from "../../../../../src-node/command/requestKeyCheck.ts";
import type { Result } from "../../../../../src-node/errors/result.ts";
import {
  array,
  boolean,
  type Decoded,
  decode,
  natural,
  record,
  reject,
  string,
} from "../../../api/decode.ts";
import { parseSignRequest, type SignRequest } from "../sign/signRequest.ts";
import { DEFAULT_GAS_LIMIT, DEFAULT_TTL } from "../transfer/transferRules.ts";

export type DappSigningStatus = {
  readonly enabled: boolean;
  readonly port: number;
  readonly listening: boolean;
  readonly problem: string | null;
  readonly timeoutSeconds: number;
};

export type DappRequest = {
  readonly id: string;
  readonly kind: "sign" | "quicksign";
  /** The requesting page's origin; `"null"` for a hidden one (sandboxed); null for a program. */
  readonly origin: string | null;
  readonly receivedAt: number;
  readonly expiresAt: number;
  readonly body: unknown;
  /** `/v1/sign`: the body's JSON text with its numbers as the dapp wrote them; else null. */
  readonly text: string | null;
};

/** How a request stopped waiting (the node's `ended` list). */
export type DappRequestEnd = "signed" | "refused" | "timedOut" | "withdrawn" | "closed";

export type DappRequests = {
  readonly version: number;
  /** Waiting, oldest first. */
  readonly requests: readonly DappRequest[];
  /** The last requests that stopped waiting, and why. */
  readonly ended: readonly { readonly id: string; readonly reason: DappRequestEnd }[];
};

const ENDS: readonly string[] = ["signed", "refused", "timedOut", "withdrawn", "closed"];

export function parseDappSigningStatus(raw: unknown): Decoded<DappSigningStatus> {
  return decode(raw, (x) => {
    const o = record(x, "status");
    return {
      enabled: boolean(o.enabled, "enabled"),
      port: natural(o.port, "port"),
      listening: boolean(o.listening, "listening"),
      problem: o.problem === null ? null : string(o.problem, "problem"),
      timeoutSeconds: natural(o.timeoutSeconds, "timeoutSeconds"),
    };
  });
}

export function parseDappRequests(raw: unknown): Decoded<DappRequests> {
  return decode(raw, (x) => {
    const o = record(x, "answer");
    const requests = array(o.requests, "requests").map((r, i): DappRequest => {
      const e = record(r, `requests[${i}]`);
      const kind = string(e.kind, `requests[${i}].kind`);
      if (kind !== "sign" && kind !== "quicksign")
        return reject(`requests[${i}].kind`, "sign or quicksign");
      return {
        id: string(e.id, `requests[${i}].id`),
        kind,
        origin: e.origin === null ? null : string(e.origin, `requests[${i}].origin`),
        receivedAt: natural(e.receivedAt, `requests[${i}].receivedAt`),
        expiresAt: natural(e.expiresAt, `requests[${i}].expiresAt`),
        body: e.body,
        text:
          e.text === undefined || e.text === null ? null : string(e.text, `requests[${i}].text`),
      };
    });
    const ended = array(o.ended, "ended").map((r, i) => {
      const e = record(r, `ended[${i}]`);
      const reason = string(e.reason, `ended[${i}].reason`);
      if (!ENDS.includes(reason)) return reject(`ended[${i}].reason`, ENDS.join(", "));
      return { id: string(e.id, `ended[${i}].id`), reason: reason as DappRequestEnd };
    });
    return { version: natural(o.version, "version"), requests, ended };
  });
}

/**
 * Who asks, in words: the web origin as the browser named it; `"null"`, the origin of a page
 * the browser hides it for (a sandboxed frame, a `file:` page), is no place the user could
 * check; no origin at all is a program (browsers send one with every request a page makes
 * here).
 */
export function originText(origin: string | null): string {
  if (origin === null) return "a program on this computer (no web origin)";
  if (origin === "null") return "an unidentified web page (sandboxed)";
  return origin;
}

export type Prepared = Result<readonly SignRequest[]>;

/** A quicksign's commands as SigData transactions (node-checked; read strictly again here). */
function quicksignTransactions(body: unknown): Prepared {
  const items = (body as { cmdSigDatas?: unknown }).cmdSigDatas;
  if (!Array.isArray(items)) return { ok: false, error: "the request holds no commands" };
  const transactions: SignRequest[] = [];
  for (const [i, item] of items.entries()) {
    const { cmd, hash, sigs } = item as { cmd: unknown; hash: unknown; sigs: unknown };
    const parsed = parseSignRequest(JSON.stringify({ cmd, hash, sigs }));
    if (!parsed.ok) return { ok: false, error: `command ${i + 1}: ${parsed.error}` };
    transactions.push(parsed.value);
  }
  return { ok: true, value: transactions };
}

/** What the wallet fills in of a `/v1/sign` request the dapp left out. */
export type SignDefaults = {
  readonly networkId: string;
  /** The wallet's keys (64 hex), the first one signs when the dapp names none. */
  readonly publicKeys: readonly string[];
  /** UNIX seconds. */
  readonly now: number;
  readonly nonce: string;
};

/** A `/v1/sign` body as the node's schema let it through; numbers plain or exact. */
type SignBody = {
  code: string;
  caps: { cap: { name: string; args: JsonValue[] } }[];
  data?: JsonObject | null;
  nonce?: string | null;
  chainId?: string | null;
  gasLimit?: number | JsonNumber | null;
  gasPrice?: number | JsonNumber | null;
  ttl?: number | JsonNumber | null;
  sender?: string | null;
  signingPubKey?: string | null;
  networkId?: string | null;
  extraSigners?: string[] | null;
};

/** A whole number of the body (the node's schema checked it), or `fallback` when absent. */
const whole = (v: number | JsonNumber | null | undefined, fallback: number): number =>
  v === null || v === undefined ? fallback : v instanceof JsonNumber ? Number(v.text) : v;

/**
 * The command a `/v1/sign` request asks for (`raw`: the body read with the exact JSON parser,
 * so capability arguments and data keep their numbers' text): its code and data; the signing key scoped to
 * its capabilities (the dapp's `signingPubKey`, else the wallet's first key), any extra
 * signers unrestricted; its chain, sender, gas, time to live and nonce, else chain 0, the
 * signer's `k:` account, the transfer form's gas limit, the minimum gas price, 8 hours and a
 * fresh nonce.
 */
export function signCommandPayload(raw: unknown, d: SignDefaults): CommandPayload {
  const b = raw as SignBody;
  const key = (b.signingPubKey ?? d.publicKeys[0])?.toLowerCase();
  if (key === undefined) throw new Error("the wallet has no key to sign with");
  const caps: Capability[] = b.caps.map((c) => ({ name: c.cap.name, args: c.cap.args }));
  const signers: Signer[] = [{ pubKey: key, clist: caps }];
  for (const extra of b.extraSigners ?? []) {
    const k = extra.toLowerCase();
    if (!signers.some((s) => s.pubKey === k)) signers.push({ pubKey: k, clist: [] });
  }
  return {
    payload: { exec: { code: b.code, data: b.data ?? {} } },
    meta: {
      chainId: b.chainId ?? "0",
      sender: b.sender ?? `k:${key}`,
      gasLimit: whole(b.gasLimit, DEFAULT_GAS_LIMIT),
      gasPrice: decimalText(b.gasPrice ?? 1e-8, "gasPrice"),
      ttl: whole(b.ttl, DEFAULT_TTL),
      creationTime: d.now,
    },
    signers,
    networkId: b.networkId ?? d.networkId,
    nonce: b.nonce ?? d.nonce,
  };
}

/** The transactions a request asks the user to sign, as the review shows them. */
export function prepareRequest(r: DappRequest, d: SignDefaults): Prepared {
  if (r.kind === "quicksign") return quicksignTransactions(r.body);
  let body: unknown = r.body;
  if (r.text !== null) {
    const read = readJsonExact(r.text);
    if (!read.ok) return { ok: false, error: `the request is not JSON (${read.error})` };
    body = read.value;
  }
  try {
    const payload = signCommandPayload(body, d);
    const cmd = cmdOf(payload);
    const sigs = payload.signers.map((s) => ({ pubKey: s.pubKey, sig: null }));
    const parsed = parseSignRequest(
      JSON.stringify({ cmd, hash: referenceRequestKeyOf(cmd), sigs }),
    );
    return parsed.ok
      ? { ok: true, value: [{ ...parsed.value, form: "command" }] }
      : { ok: false, error: parsed.error };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * The answer the node hands to the dapp once the user signed: per quicksign command the
 * signatures in the order the dapp listed its keys; for `/v1/sign` the built command and its
 * signatures in signer order.
 */
export function signedAnswer(
  r: DappRequest,
  signed: readonly SignRequest[],
): { answer: "signed"; sigs: unknown[]; cmd?: string } {
  if (r.kind === "quicksign") {
    const items = (r.body as { cmdSigDatas: { sigs: { pubKey: string }[] }[] }).cmdSigDatas;
    return {
      answer: "signed",
      sigs: items.map((item, i) => {
        const t = signed[i];
        if (t === undefined) throw new Error(`command ${i + 1} is missing`);
        const keys = t.payload.signers.map((s) => s.pubKey.toLowerCase());
        return item.sigs.map((s) => t.sigs[keys.indexOf(s.pubKey.toLowerCase())] ?? null);
      }),
    };
  }
  const t = signed[0];
  if (t === undefined) throw new Error("the command is missing");
  return { answer: "signed", cmd: t.cmd, sigs: [...t.sigs] };
}
