/**
 * The wallet's server data: its endpoints, calls of their contract entries over the one node
 * client (`walletCalls`), the query keys (`walletKeys`) and the query options every wallet page
 * reads through. Chain data sits under `["wallet", "chain", c]`, refreshed when a block lands
 * on chain c (`useRefreshOnBlocks`); the app's routes under `["app", …]`. Changes go through
 * `useMutation` in the component that makes them, with these calls as `mutationFn`.
 * @module
 */
import { mutationOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import { appRoutes } from "../../../../src-node/appContract/appRoutes.ts";
import {
  type KeystoreFile,
  parseKeystoreFile,
} from "../../../../src-node/walletFiles/keystoreFile.ts";
import type { PendingFile } from "../../../../src-node/walletFiles/pendingFile.ts";
import { sharedEndpoints } from "../../api/appEndpoints.ts";
import { unwrap } from "../../api/clientFailure.ts";
import { type Decoded, decode, record, string } from "../../api/decode.ts";
import { callEndpoint, callEndpointWith } from "../../api/endpoint.ts";
import { plainError, WordedError } from "../../api/errorWords.ts";
import type { MiningChange } from "../../api/miningStatus.ts";
import type { NodeClient } from "../../api/nodeClient.ts";
import type { PactClient } from "../../api/pactClient.ts";
import { queryKeys } from "../../services/queryClient.ts";
import { readAccounts } from "./accounts/readAccounts.ts";
import { parseBackupState } from "./backup/backUpFirst.ts";
import { parseBackupDue } from "./backup/backupDue.ts";
import { parseWalletRecords, type WalletRecords } from "./crosschain/pendingFile.ts";
import type { DappRequests } from "./dapp/dappRequests.ts";
import type { LocalCaller } from "./discovery/accountDiscovery.ts";
import { type SignerAnswerBody, walletEndpoints } from "./endpoints.ts";
import { parseKeystoreAnswer } from "./fileAnswers.ts";
import { entryFromExplorerTx } from "./history/lookupTransaction.ts";
import type { VaultActions } from "./vault/useVault.ts";

/** Reads an answer as it came: the caller reads it on (the stored files). */
const asItCame = (raw: unknown): Decoded<unknown> => ({ ok: true, value: raw });

/** The id of the backup job `POST /app/api/backup/start` started (or found running). */
const parseStarted = (raw: unknown): Decoded<string> =>
  decode(raw, (x) => string(record(x, "answer").id, "id"));

/**
 * The wallet's endpoints (docs/wallet.md), each a call of its contract entry (`endpoints.ts`),
 * or, for the backup's and the explorer's routes the wallet reads, of the shared table's route
 * (`appContract/appRoutes.ts`) with the wallet's own reading of the answer.
 */
export const walletCalls = {
  /**
   * `GET /app/api/wallet/keystore`: the stored keystore file as JSON (`null` before the first
   * wallet), read on by `keystoreQuery`, which says when the file itself cannot be read.
   */
  keystore: (c: NodeClient) =>
    callEndpointWith(c, walletEndpoints.keystore, {}, parseKeystoreAnswer),
  /** `PUT /app/api/wallet/keystore`: replaces the stored keystore file. */
  saveKeystore: (c: NodeClient, keystore: KeystoreFile) =>
    callEndpoint(c, walletEndpoints.saveKeystore, {}, keystore),
  /** `POST /app/api/wallet/keystore/replace`: the old file kept aside, the new one stored. */
  replaceKeystore: (c: NodeClient, keystore: KeystoreFile) =>
    callEndpoint(c, walletEndpoints.replaceKeystore, {}, keystore),
  /**
   * `GET /app/api/wallet/pending`: the stored pending-transfers file as JSON (`{pending: null}`
   * before the first), as it came: `walletRecordsQuery` reads it with
   * `crosschain/pendingFile.ts`, an unreadable file being an answer, not a failed call.
   */
  pending: (c: NodeClient) => callEndpointWith(c, walletEndpoints.pending, {}, asItCame),
  /** `PUT /app/api/wallet/pending`: replaces the stored pending-transfers file. */
  savePending: (c: NodeClient, file: PendingFile) =>
    callEndpoint(c, walletEndpoints.savePending, {}, file),
  /** `POST /chain/{c}/pact/api/v1/local` with the answer's JSON as it came (account discovery). */
  localRaw:
    (c: NodeClient): LocalCaller =>
    (chainId, command) =>
      c.post(`/chain/${chainId}/pact/api/v1/local?signatureVerification=false`, command, (raw) => ({
        ok: true,
        value: raw,
      })),
  /** `GET /app/api/explorer/tx/{requestKey}` read into an "added" history entry. */
  explorerTx: (c: NodeClient, requestKey: string, createdAt: number) =>
    callEndpointWith(c, appRoutes.explorer.transaction, { requestKey }, (raw) =>
      entryFromExplorerTx(raw, createdAt),
    ),
  /** `GET /app/api/backup`, only whether a fresh backup is due (the Backup page owns the rest). */
  backupDue: (c: NodeClient) => callEndpointWith(c, appRoutes.backup.overview, {}, parseBackupDue),
  /** `GET /app/api/backup`, what the wallet asks before it replaces itself. */
  backupState: (c: NodeClient) =>
    callEndpointWith(c, appRoutes.backup.overview, {}, parseBackupState),
  /** `POST /app/api/backup/start`: an app backup (the node's databases and the wallet's files). */
  startBackup: (c: NodeClient, includeState: boolean) =>
    callEndpointWith(c, appRoutes.backup.start, {}, parseStarted, { includeState }),
  /** `GET /app/api/wallet/dapp-signing`: the dapp signing API's setting and whether it listens. */
  dappSigning: (c: NodeClient) => callEndpoint(c, walletEndpoints.dappSigning, {}),
  /** `POST /app/api/wallet/dapp-signing`: switches it (and its port); the answer is the new state. */
  setDappSigning: (c: NodeClient, change: DappSigningChange) =>
    callEndpoint(c, walletEndpoints.setDappSigning, {}, change),
  /**
   * `GET /app/api/wallet/sign-requests[?since=N]`: the dapps' waiting requests; with `since`
   * the current version, the node first waits (up to 8 s) for a change (a long poll).
   */
  signRequests: (c: NodeClient, since: number | null) =>
    callEndpoint(c, walletEndpoints.signRequests, since === null ? {} : { since }),
  /** `POST /app/api/wallet/sign-requests/{id}`: the user's answer to request `id`, and no other. */
  answerSignRequest: (c: NodeClient, id: string, answer: SignerAnswerBody) =>
    callEndpoint(c, walletEndpoints.answerSignRequest, { id }, answer),
};

/** What the dapp signing setting's switch and port field send. */
export type DappSigningChange = { readonly enabled: boolean; readonly port: number };

/** Query keys of the wallet's data; a block on chain c refreshes `chain(c)` and all under it. */
export const walletKeys = {
  chain: (chainId: number) => ["wallet", "chain", chainId] as const,
  details: (chainId: number, accounts: readonly string[]) =>
    ["wallet", "chain", chainId, "details", ...accounts] as const,
  tx: (chainId: number, requestKey: string) =>
    ["wallet", "chain", chainId, "tx", requestKey] as const,
  /** The stored keystore file (server state; the vault's saves write it here too). */
  keystore: ["app", "wallet", "keystore"] as const,
  /** The wallet's records: pending cross-chain transfers, history, multi-signature accounts. */
  records: ["app", "wallet", "pending"] as const,
  /** The records' driver: one step of every unfinished transfer and open history entry. */
  recordsStep: ["wallet", "records", "step"] as const,
  /** Under the Backup page's key (`["app", "backup"]`), so its refreshes refresh these too. */
  backupDue: ["app", "backup", "fresh-backup-due"] as const,
  backupState: ["app", "backup", "before-replacing-the-wallet"] as const,
  /** The dapp signing API's setting (the Wallet page's panel). */
  dappSigning: ["app", "wallet", "dapp-signing"] as const,
  /** The dapps' waiting signing requests (the long poll of `DappRequestsProvider`). */
  signRequests: ["app", "wallet", "sign-requests"] as const,
};

/**
 * The stored keystore file, parsed (`null` before the first wallet). Read once and kept: the
 * vault's saves write the cache (`VaultProvider.tsx`), and the node coming back after a
 * restart or a restore invalidates every query, so a restored file is read again.
 * @throws {WordedError} when the stored file cannot be read.
 */
export function keystoreQuery(client: NodeClient) {
  return queryOptions({
    queryKey: walletKeys.keystore,
    queryFn: async (): Promise<KeystoreFile | null> => {
      const { keystore } = await unwrap(walletCalls.keystore(client));
      // (After a restore: a backup made before the wallet existed holds none.)
      if (keystore === null) return null;
      const parsed = parseKeystoreFile(keystore);
      if (!parsed.ok) {
        throw new WordedError(plainError(`The stored keystore cannot be read (${parsed.error}).`));
      }
      return parsed.value;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * The wallet's records as stored (`wallet/pending.json`), read once when the app starts: the
 * provider keeps them from then on and saves every change (`saveRecordsMutation`). An
 * unreadable file is an answer (`ok: false`), not a failed read.
 */
export function walletRecordsQuery(client: NodeClient) {
  return queryOptions({
    queryKey: walletKeys.records,
    queryFn: async (): Promise<Decoded<WalletRecords>> =>
      parseWalletRecords(await unwrap(walletCalls.pending(client))),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** How often the records' driver steps (`crosschain/PendingProvider.tsx`). */
export const RECORDS_STEP_MS = 3000;

/**
 * The records' driver as a polled query: `step` moves every unfinished cross-chain transfer
 * one step and looks at the open history entries once (each step is safe to repeat), every
 * {@link RECORDS_STEP_MS}, in the background too; never two at once (a refetch while one runs
 * joins it). Its value is how many records changed.
 */
export function recordsStepQuery(step: (signal: AbortSignal) => Promise<number>) {
  return queryOptions({
    queryKey: walletKeys.recordsStep,
    queryFn: ({ signal }) => step(signal),
    refetchInterval: RECORDS_STEP_MS,
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/**
 * Saving the records file: saves run one after another in the order made (one mutation
 * scope), so the last change is the one stored.
 */
export function saveRecordsMutation(client: NodeClient) {
  return mutationOptions({
    mutationFn: (file: PendingFile) => unwrap(walletCalls.savePending(client, file)),
    scope: { id: "wallet-records-file" },
  });
}

/**
 * A new recovery phrase of `words` words, made and kept by the vault worker until the wallet
 * is created (a read of the worker, not of the node). Asked once per form and length, never
 * again by itself (another phrase would not be the one written down), and dropped from the
 * cache as soon as the form stops showing it.
 */
export function newPhraseQuery(
  vault: Pick<VaultActions, "generatePhrase">,
  form: string,
  words: 12 | 24,
) {
  return queryOptions({
    queryKey: ["wallet", "new-phrase", form, words] as const,
    queryFn: () => vault.generatePhrase(words),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/** How often a sent transaction's status and the mining switch are asked while shown. */
const STATUS_EVERY_MS = 3000;

/**
 * `accounts` on one chain, in one batched `/local` (`accounts/accountDetails.ts`); kept 10 s,
 * and refreshed when a block lands on the chain.
 */
export function accountsQuery(
  pact: PactClient,
  networkId: string,
  chainId: number,
  accounts: readonly string[],
) {
  return queryOptions({
    queryKey: walletKeys.details(chainId, accounts),
    queryFn: () => readAccounts(pact, networkId, chainId, accounts),
    enabled: accounts.length > 0,
    staleTime: 10_000,
  });
}

/** A sent command's result: `null` while no block holds it (asked every 3 s until one does). */
export function txResultQuery(pact: PactClient, chainId: number, requestKey: string) {
  return queryOptions({
    queryKey: walletKeys.tx(chainId, requestKey),
    queryFn: async () => (await unwrap(pact.poll(chainId, [requestKey]))).get(requestKey) ?? null,
    refetchInterval: (q) => (q.state.data == null ? STATUS_EVERY_MS : false),
  });
}

/**
 * The node's mining switch, for the offer under a transfer that waits for a block (the Node
 * page polls the same key). Not retried: the route answers the node's own app only.
 */
export function miningQuery(client: NodeClient) {
  return queryOptions({
    queryKey: queryKeys.mining,
    queryFn: () => unwrap(callEndpoint(client, sharedEndpoints.mining, {})),
    refetchInterval: STATUS_EVERY_MS,
    retry: false,
  });
}

/** Whether a fresh backup is due, polled as slowly as the Backup page polls. */
export function backupDueQuery(client: NodeClient) {
  return queryOptions({
    queryKey: walletKeys.backupDue,
    queryFn: () => unwrap(walletCalls.backupDue(client)),
    refetchInterval: 30_000,
  });
}

/** What the backup offer before a replacement shows: every second while a backup runs. */
export function backupStateQuery(client: NodeClient) {
  return queryOptions({
    queryKey: walletKeys.backupState,
    queryFn: () => unwrap(walletCalls.backupState(client)),
    refetchInterval: (q) => (q.state.data?.runningId == null ? 10_000 : 1_000),
  });
}

/** "Back up now" before a replacement; the wallet's backup answers are asked again after. */
export function startBackupMutation(client: NodeClient, queries: QueryClient) {
  return mutationOptions({
    mutationFn: (includeState: boolean) => unwrap(walletCalls.startBackup(client, includeState)),
    onSettled: () => {
      void queries.invalidateQueries({ queryKey: walletKeys.backupState });
      void queries.invalidateQueries({ queryKey: walletKeys.backupDue });
    },
  });
}

/** "Turn mining on" / "Mine on demand" under a waiting transfer; the answer is the new state. */
export function setMiningMutation(client: NodeClient, queries: QueryClient) {
  return mutationOptions({
    mutationFn: (change: MiningChange) =>
      unwrap(callEndpoint(client, sharedEndpoints.setMining, {}, change)),
    onSuccess: (status) => queries.setQueryData(queryKeys.mining, status),
  });
}

/** The dapp signing API's setting, for the Wallet page's panel. */
export function dappSigningQuery(client: NodeClient) {
  return queryOptions({
    queryKey: walletKeys.dappSigning,
    queryFn: () => unwrap(walletCalls.dappSigning(client)),
  });
}

/** Switching the dapp signing API or its port; the answer is the setting's new state. */
export function setDappSigningMutation(client: NodeClient, queries: QueryClient) {
  return mutationOptions({
    mutationFn: (change: DappSigningChange) => unwrap(walletCalls.setDappSigning(client, change)),
    onSuccess: (status) => queries.setQueryData(walletKeys.dappSigning, status),
  });
}

/** The next long poll after an answer: at once (the node itself holds the request open). */
const SIGN_REQUESTS_AGAIN_MS = 1;
/** The next one after a failure (node away, routes absent), which asks for the list at once. */
export const SIGN_REQUESTS_RETRY_MS = 5000;

/**
 * The dapps' waiting signing requests as a long poll (docs/dapp-signing.md): each fetch sends
 * the version of the list it has (`since`), which the node holds until the list changes (or 8 s
 * pass), and the next fetch starts as soon as one ends, in the background too; a failed one is
 * repeated after {@link SIGN_REQUESTS_RETRY_MS} without `since`, so its answer comes at once.
 * One poll at a time: the interval runs only while none is in flight.
 */
export function signRequestsQuery(client: NodeClient) {
  return queryOptions({
    queryKey: walletKeys.signRequests,
    queryFn: ({ client: queries, queryKey }): Promise<DappRequests> => {
      const last = queries.getQueryState<DappRequests>(queryKey);
      const since =
        last?.status === "success" && last.data !== undefined ? last.data.version : null;
      return unwrap(walletCalls.signRequests(client, since));
    },
    refetchInterval: (q) =>
      q.state.fetchStatus !== "idle"
        ? false
        : q.state.status === "error"
          ? SIGN_REQUESTS_RETRY_MS
          : SIGN_REQUESTS_AGAIN_MS,
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: false,
  });
}

/** The user's answer to the dapp request on screen (its id: it reaches that dapp or nobody). */
export function answerSignRequestMutation(client: NodeClient) {
  return mutationOptions({
    mutationFn: ({ id, answer }: { readonly id: string; readonly answer: SignerAnswerBody }) =>
      unwrap(walletCalls.answerSignRequest(client, id, answer)),
  });
}
