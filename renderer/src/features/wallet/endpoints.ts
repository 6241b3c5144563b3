/**
 * The wallet's endpoints (`/app/api/wallet/*`, docs/wallet.md, docs/dapp-signing.md) as
 * contract entries (`api/endpoint.ts`) over the wallet's own parsers; `app/appEndpoints.ts`
 * lists them. The stored files' entries read them whole: the keystore through
 * `src-node/walletFiles/keystoreFile.ts`, the pending file through `crosschain/pendingFile.ts`.
 * @module
 */
import {
  type KeystoreFile,
  parseKeystoreFile,
} from "../../../../src-node/walletFiles/keystoreFile.ts";
import type { PendingFile } from "../../../../src-node/walletFiles/pendingFile.ts";
import { type Decoded, decode, record, reject } from "../../api/decode.ts";
import { bodyType, endpoint } from "../../api/endpoint.ts";
import { parseWalletRecords } from "./crosschain/pendingFile.ts";
import type { DappSigningStatus } from "./dapp/dappRequests.ts";
import { parseDappRequests, parseDappSigningStatus } from "./dapp/dappRequests.ts";
import { parseKeystoreAnswer, parseReplaced, parseSaved } from "./fileAnswers.ts";

/** The stored keystore, read whole (`null` before the first wallet). */
export function parseStoredKeystore(raw: unknown): Decoded<KeystoreFile | null> {
  const answer = parseKeystoreAnswer(raw);
  if (!answer.ok) return answer;
  return answer.value.keystore === null
    ? { ok: true, value: null }
    : parseKeystoreFile(answer.value.keystore);
}

/** The node took the user's answer to a signing request. */
export function parseAnswered(raw: unknown): Decoded<{ readonly answered: true }> {
  return decode(raw, (x) => {
    if (record(x, "answer").answered !== true) reject("answer.answered", "true");
    return { answered: true as const };
  });
}

/** The user's answer to a dapp's signing request (docs/dapp-signing.md). */
export type SignerAnswerBody =
  | { readonly answer: "refused" }
  | { readonly answer: "signed"; readonly cmd?: string; readonly sigs: readonly unknown[] };

export const walletEndpoints = {
  keystore: endpoint({
    method: "GET",
    route: "/app/api/wallet/keystore",
    reply: parseStoredKeystore,
  }),
  saveKeystore: endpoint({
    method: "PUT",
    route: "/app/api/wallet/keystore",
    body: bodyType<KeystoreFile>(),
    reply: parseSaved,
  }),
  replaceKeystore: endpoint({
    method: "POST",
    route: "/app/api/wallet/keystore/replace",
    body: bodyType<KeystoreFile>(),
    reply: parseReplaced,
  }),
  pending: endpoint({
    method: "GET",
    route: "/app/api/wallet/pending",
    reply: parseWalletRecords,
  }),
  savePending: endpoint({
    method: "PUT",
    route: "/app/api/wallet/pending",
    body: bodyType<PendingFile>(),
    reply: parseSaved,
  }),
  dappSigning: endpoint({
    method: "GET",
    route: "/app/api/wallet/dapp-signing",
    reply: parseDappSigningStatus,
  }),
  setDappSigning: endpoint({
    method: "POST",
    route: "/app/api/wallet/dapp-signing",
    body: bodyType<Pick<DappSigningStatus, "enabled" | "port">>(),
    reply: parseDappSigningStatus,
  }),
  signRequests: endpoint({
    method: "GET",
    route: "/app/api/wallet/sign-requests",
    query: ["since"],
    reply: parseDappRequests,
  }),
  answerSignRequest: endpoint({
    method: "POST",
    route: "/app/api/wallet/sign-requests/:id",
    body: bodyType<SignerAnswerBody>(),
    reply: parseAnswered,
  }),
};
