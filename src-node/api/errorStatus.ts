/**
 * The one table from error codes to HTTP statuses, and the error replies:
 * - a block hash the chain does not hold (STORE_KEY_NOT_FOUND): 404 with the
 *   spec's not-found object `{"key": <hash>, "reason": "key not found"}`;
 * - every other error: its status with a text/plain message;
 * - anything that is not a coded error (a bug): 500 "internal error", the
 *   details go to the log, never to the client.
 * Areas added later (exec, mempool) add their tables here.
 * @module
 */
import { BackupErrorCode, type BackupErrorCodeValue } from "../backup/errors.ts";
import { ChainErrorCode, type ChainErrorCodeValue } from "../chain/errors.ts";
import { EncodingErrorCode } from "../encoding/errors.ts";
import { NodeError } from "../errors/nodeError.ts";
import {
  CommandErrorCode,
  ExecErrorCode,
  type ExecErrorCodeValue,
  SpvErrorCode,
} from "../exec/errors.ts";
import { ExplorerErrorCode, type ExplorerErrorCodeValue } from "../index/errors.ts";
import { MempoolErrorCode, type MempoolErrorCodeValue } from "../mempool/errors.ts";
import { MiningErrorCode, type MiningErrorCodeValue } from "../mining/errors.ts";
import { P2pErrorCode } from "../p2p/errors.ts";
import { PrivateErrorCode, type PrivateErrorCodeValue } from "../p2p/private/errors.ts";
import { StoreError, StoreErrorCode, type StoreErrorCodeValue } from "../store/errors.ts";
import {
  ApiErrorCode,
  type ApiErrorCodeValue,
  AppErrorCode,
  type AppErrorCodeValue,
} from "./errors.ts";

const apiStatus: Record<ApiErrorCodeValue, number> = {
  [ApiErrorCode.BadRequest]: 400,
  [ApiErrorCode.NotAcceptable]: 406,
  [ApiErrorCode.BranchBoundsExceeded]: 400,
  [ApiErrorCode.RouteNotFound]: 404,
  [ApiErrorCode.ListenFailed]: 500,
  [ApiErrorCode.NotListening]: 500,
  [ApiErrorCode.UiNotBuilt]: 503,
  [ApiErrorCode.HostForbidden]: 403,
  [ApiErrorCode.OriginForbidden]: 403,
  [ApiErrorCode.UnsupportedMediaType]: 415,
};

/** The app's private API (appApi.ts). */
const appStatus: Record<AppErrorCodeValue, number> = {
  [AppErrorCode.Forbidden]: 403,
  [AppErrorCode.TokenRequired]: 403,
  [AppErrorCode.NotJson]: 415,
  [AppErrorCode.BadRequest]: 400,
  [AppErrorCode.Internal]: 500,
  [AppErrorCode.KeystoreUnreadable]: 409,
  [AppErrorCode.RestartUnavailable]: 409,
  [AppErrorCode.SignRequestGone]: 404,
  [AppErrorCode.SignRequestWithdrawn]: 410,
  [AppErrorCode.DappPortUnavailable]: 409,
};

const storeStatus: Record<StoreErrorCodeValue, number> = {
  [StoreErrorCode.OpenFailed]: 500,
  [StoreErrorCode.SchemaTooNew]: 500,
  [StoreErrorCode.NetworkMismatch]: 500,
  [StoreErrorCode.GenesisMismatch]: 500,
  [StoreErrorCode.Corrupt]: 500,
  [StoreErrorCode.InvalidBlock]: 500,
  [StoreErrorCode.Closed]: 503,
  [StoreErrorCode.WriteFailed]: 503,
  [StoreErrorCode.UnknownChain]: 404,
  [StoreErrorCode.KeyNotFound]: 404,
  [StoreErrorCode.HeightNotFound]: 404,
  [StoreErrorCode.Invariant]: 500,
};

/** Block and header rejections are the client's: 400, except a bug (invariant). */
const chainStatus: Record<ChainErrorCodeValue, number> = Object.fromEntries(
  Object.values(ChainErrorCode).map((c) => [c, c === ChainErrorCode.Invariant ? 500 : 400]),
) as Record<ChainErrorCodeValue, number>;

const encodingStatus: Record<string, number> = Object.fromEntries(
  Object.values(EncodingErrorCode).map((c) => [c, 400]),
);

/** Mining API and miner control (docs/api.md, docs/desktop.md §3.3). */
const miningStatus: Record<MiningErrorCodeValue, number> = {
  [MiningErrorCode.BadWork]: 400,
  [MiningErrorCode.BadArgument]: 400,
  [MiningErrorCode.BadMessage]: 500,
  [MiningErrorCode.BadSolution]: 500,
  [MiningErrorCode.WorkerFailed]: 500,
  [MiningErrorCode.PoolClosed]: 503,
  [MiningErrorCode.BadMinerInfo]: 400,
  [MiningErrorCode.BadChain]: 400,
  [MiningErrorCode.UnknownPayload]: 404,
  [MiningErrorCode.ChangedWork]: 400,
  [MiningErrorCode.PowAboveTarget]: 400,
  [MiningErrorCode.StaleCreationTime]: 400,
  [MiningErrorCode.FutureCreationTime]: 400,
  [MiningErrorCode.NoWork]: 503,
  [MiningErrorCode.TooManyStreams]: 503,
  [MiningErrorCode.CannotStart]: 409,
  [MiningErrorCode.NodeRequestFailed]: 502,
};

/** The backup API (docs/api.md "Backup"); job failures are statuses, not errors. */
const backupStatus: Record<BackupErrorCodeValue, number> = {
  [BackupErrorCode.BadId]: 400,
  [BackupErrorCode.UnknownId]: 404,
  [BackupErrorCode.DirectoryUnusable]: 500,
  [BackupErrorCode.WriteFailed]: 500,
  [BackupErrorCode.SourceChanging]: 500,
  [BackupErrorCode.Interrupted]: 500,
  [BackupErrorCode.Stopped]: 503,
  [BackupErrorCode.BadManifest]: 500,
  [BackupErrorCode.NotDone]: 500,
  [BackupErrorCode.ChecksumMismatch]: 500,
  [BackupErrorCode.IntegrityFailed]: 500,
  [BackupErrorCode.WrongNetwork]: 500,
  [BackupErrorCode.RestoreFailed]: 500,
  [BackupErrorCode.DataInUse]: 500,
  [BackupErrorCode.LockFailed]: 500,
  [BackupErrorCode.Invariant]: 500,
  [BackupErrorCode.NotRestorable]: 422,
  [BackupErrorCode.FolderUnusable]: 422,
  [BackupErrorCode.Running]: 409,
  [BackupErrorCode.UnsafeFile]: 422,
};

/** A refused command is the client's (400), except a bug (invariant). */
const commandStatus: Record<string, number> = Object.fromEntries(
  Object.values(CommandErrorCode).map((c) => [c, c === CommandErrorCode.Invariant ? 500 : 400]),
);

/** The contract command endpoints and block execution (docs/api.md "Contract commands"). */
const execStatus: Record<ExecErrorCodeValue, number> = {
  [ExecErrorCode.BatchInvalid]: 400,
  [ExecErrorCode.PreflightInvalid]: 400,
  [ExecErrorCode.BlockInvalid]: 400,
  [ExecErrorCode.OutputMismatch]: 400,
  [ExecErrorCode.PrivateNeedsPeer]: 400,
  [ExecErrorCode.ListenTimeout]: 504,
  [ExecErrorCode.ShuttingDown]: 503,
  [ExecErrorCode.CoinbaseFails]: 400,
  [ExecErrorCode.GenesisFailed]: 500,
  [ExecErrorCode.ReplayMismatch]: 500,
  [ExecErrorCode.TimeLimit]: 400,
  [ExecErrorCode.WorkerFailed]: 503,
  [ExecErrorCode.StatePruned]: 400,
  [ExecErrorCode.Invariant]: 500,
};

/** /spv refusals are all the client's (reference §9.1: 400 text/plain). */
const spvStatus: Record<string, number> = Object.fromEntries(
  Object.values(SpvErrorCode).map((c) => [c, 400]),
);

const mempoolStatus: Record<MempoolErrorCodeValue, number> = {
  [MempoolErrorCode.Full]: 503,
};

/** The explorer's API (docs/explorer-api.md). */
const explorerStatus: Record<ExplorerErrorCodeValue, number> = {
  [ExplorerErrorCode.BadQuery]: 400,
  [ExplorerErrorCode.NotFound]: 404,
  [ExplorerErrorCode.Closed]: 503,
};

/** The peer routes and `/app/api/peers` (docs/p2p.md). */
const p2pStatus: Record<(typeof P2pErrorCode)[keyof typeof P2pErrorCode], number> = {
  [P2pErrorCode.BadPeerAddress]: 400,
  [P2pErrorCode.BadCut]: 400,
  [P2pErrorCode.WrongNetwork]: 400,
  [P2pErrorCode.PeerBanned]: 403,
  [P2pErrorCode.UnknownPeer]: 404,
  [P2pErrorCode.PeerMisbehaved]: 502,
  [P2pErrorCode.PeerUnreachable]: 502,
  [P2pErrorCode.Disabled]: 404,
  [P2pErrorCode.BadChallenge]: 400,
};

/** `/private` and its peer-only routes (docs/private.md). */
const privateStatus: Record<PrivateErrorCodeValue, number> = {
  [PrivateErrorCode.NoEntity]: 400,
  [PrivateErrorCode.NotSender]: 400,
  [PrivateErrorCode.UnknownEntity]: 400,
  [PrivateErrorCode.BadEnvelope]: 400,
  [PrivateErrorCode.NotAddressed]: 400,
  [PrivateErrorCode.Undecryptable]: 400,
  [PrivateErrorCode.DeliveryFailed]: 502,
  [PrivateErrorCode.KeyFileUnreadable]: 500,
  [PrivateErrorCode.UntrustedEntity]: 400,
  [PrivateErrorCode.UntrustedSender]: 403,
  [PrivateErrorCode.BadSignature]: 403,
  [PrivateErrorCode.Replayed]: 409,
  [PrivateErrorCode.BadTrustedEntity]: 400,
  [PrivateErrorCode.TrustConflict]: 409,
  [PrivateErrorCode.NotTrusted]: 404,
  [PrivateErrorCode.TrustFileUnreadable]: 500,
};

const statusByCode: Readonly<Record<string, number>> = {
  ...encodingStatus,
  ...chainStatus,
  ...storeStatus,
  ...apiStatus,
  ...appStatus,
  ...miningStatus,
  ...backupStatus,
  ...commandStatus,
  ...execStatus,
  ...spvStatus,
  ...mempoolStatus,
  ...explorerStatus,
  ...p2pStatus,
  ...privateStatus,
};

/** The HTTP status of a coded error (500 for codes no table lists). */
export function statusOfCode(code: string): number {
  return statusByCode[code] ?? 500;
}

export type ErrorReply = {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
};

const TEXT = "text/plain; charset=utf-8";

/** Fastify's own client errors (body too large, bad JSON, unsupported media type). */
function frameworkStatus(e: unknown): number | undefined {
  if (typeof e !== "object" || e === null || !("statusCode" in e)) return undefined;
  const s = e.statusCode;
  return typeof s === "number" && s >= 400 && s < 500 ? s : undefined;
}

/**
 * The reply for an error thrown while handling a request.
 * @param contentType the request's Content-Type, named when it is the problem
 *   (Fastify's own 415 text, "Unsupported Media Type", does not say which).
 */
export function errorReply(e: unknown, contentType?: string): ErrorReply {
  if (e instanceof StoreError && e.type.code === StoreErrorCode.KeyNotFound) {
    return {
      status: 404,
      contentType: "application/json; charset=utf-8",
      body: JSON.stringify({ key: e.type.key, reason: "key not found" }),
    };
  }
  if (e instanceof NodeError) {
    const status = statusOfCode(e.code);
    return {
      status,
      contentType: TEXT,
      body: status === 500 ? "internal error\n" : `${e.message}\n`,
    };
  }
  const status = frameworkStatus(e);
  if (status === 415) {
    const shown = JSON.stringify((contentType ?? "").slice(0, 100));
    return {
      status,
      contentType: TEXT,
      body: `content-type: ${shown} is not supported; send application/json\n`,
    };
  }
  if (status !== undefined && e instanceof Error) {
    return { status, contentType: TEXT, body: `${e.message}\n` };
  }
  return { status: 500, contentType: TEXT, body: "internal error\n" };
}
