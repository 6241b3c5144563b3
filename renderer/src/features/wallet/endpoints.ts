/**
 * The wallet's endpoints (`/app/api/wallet/*`, docs/wallet.md, docs/dapp-signing.md) as
 * contract entries (`api/endpoint.ts`): the shared table's routes
 * (src-node/appContract/appRoutes.ts) over the wallet's own parsers; `app/appEndpoints.ts`
 * lists them. The stored files' entries read them whole: the keystore through
 * `src-node/walletFiles/keystoreFile.ts`, the pending file through `crosschain/pendingFile.ts`
 * (the node checks both with the same parsers; the table names the files' types as bodies).
 * @module
 */
import { appRoutes } from "../../../../src-node/appContract/appRoutes.ts";
import {
  type KeystoreFile,
  parseKeystoreFile,
} from "../../../../src-node/walletFiles/keystoreFile.ts";
import { type Decoded, decode, record, reject } from "../../api/decode.ts";
import { endpoint } from "../../api/endpoint.ts";
import { parseWalletRecords } from "./crosschain/pendingFile.ts";
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

/** The user's answer to a dapp's signing request: the shared table's body type. */
export type { SignerAnswerBody } from "../../../../src-node/appContract/appRoutes.ts";

export const walletEndpoints = {
  keystore: endpoint(appRoutes.wallet.keystore, parseStoredKeystore),
  saveKeystore: endpoint(appRoutes.wallet.saveKeystore, parseSaved),
  replaceKeystore: endpoint(appRoutes.wallet.replaceKeystore, parseReplaced),
  pending: endpoint(appRoutes.wallet.pending, parseWalletRecords),
  savePending: endpoint(appRoutes.wallet.savePending, parseSaved),
  dappSigning: endpoint(appRoutes.wallet.dappSigning, parseDappSigningStatus),
  setDappSigning: endpoint(appRoutes.wallet.setDappSigning, parseDappSigningStatus),
  signRequests: endpoint(appRoutes.wallet.signRequests, parseDappRequests),
  answerSignRequest: endpoint(appRoutes.wallet.answerSignRequest, parseAnswered),
};
