/**
 * The Node page's plain logic: what the stream state, the health check and a refused mining
 * change say to the user. Decisions use the node's error code (`{code, message}` replies),
 * not guesses from the HTTP status.
 * @module
 */
import { type ClientError, ClientErrorCode, describeClientError } from "../../api/clientError.ts";
import type { StreamState } from "../../api/headerStream.ts";

export const streamText: Record<StreamState, string> = {
  connecting: "Connecting to live updates…",
  open: "Live: new blocks appear as they are added.",
  reconnecting: "Live updates interrupted; reconnecting…",
  closed: "Live updates stopped.",
};

/** The node's code of the mining route's "not from this computer" refusal. */
export const MINING_FORBIDDEN = "MINING_FORBIDDEN";
/** The node's code of "the miner cannot start" (no reward account, a thread did not start). */
export const MINING_CANNOT_START = "MINING_CANNOT_START";

/**
 * Whether the node refused the app API because the request does not come from this
 * computer's own app: the mining route's own code, or any `APP_*` refusal of the app API's
 * guard (403).
 */
export function isForbiddenHere(e: ClientError): boolean {
  if (e.code !== ClientErrorCode.HttpStatus || e.nodeCode === null) return false;
  return e.nodeCode === MINING_FORBIDDEN || (e.nodeCode.startsWith("APP_") && e.status === 403);
}

export type MiningRefusal = {
  readonly kind: "forbidden" | "cannot-start" | "bad-account" | "failed";
  /** One short sentence, shown in bold. */
  readonly title: string;
  /** What the node said and, where useful, what to do. */
  readonly detail: string;
};

/** A refused or failed `POST /app/api/mining`, said plainly. */
export function miningRefusal(e: ClientError): MiningRefusal {
  if (isForbiddenHere(e)) {
    return {
      kind: "forbidden",
      title: "Mining can be turned on and off only on the computer that runs the node.",
      detail: e.code === ClientErrorCode.HttpStatus && e.message !== null ? e.message : "",
    };
  }
  if (e.code === ClientErrorCode.HttpStatus && e.nodeCode === MINING_CANNOT_START) {
    // The node's message repeats the title ("mining cannot start: …"); keep the reason.
    const reason = (e.message ?? "").replace(/^mining cannot start:\s*/i, "");
    return {
      kind: "cannot-start",
      title: "Mining did not start.",
      detail:
        reason === ""
          ? "The node cannot start its miner."
          : `${reason.charAt(0).toUpperCase()}${reason.slice(1)}`,
    };
  }
  if (e.code === ClientErrorCode.HttpStatus && e.nodeCode === MINING_BAD_MINER_INFO) {
    return {
      kind: "bad-account",
      title: "The reward account was not accepted.",
      detail: e.message ?? "The node cannot pay rewards to this account with these keys.",
    };
  }
  return {
    kind: "failed",
    title: "The miner's setting was not changed.",
    detail: describeClientError(e),
  };
}

export type HealthView =
  | { readonly kind: "checking" }
  | { readonly kind: "healthy"; readonly text: string }
  | { readonly kind: "down"; readonly text: string };

/** The health line from the last health-check reply (`text`) or failure (`error`). */
export function healthView(text: string | undefined, error: ClientError | null): HealthView {
  if (error !== null) return { kind: "down", text: describeClientError(error) };
  if (text === undefined) return { kind: "checking" };
  return { kind: "healthy", text: text.trim() || "the node answers" };
}

/** The node's code of a reward account it cannot use (bad name, keys, predicate). */
export const MINING_BAD_MINER_INFO = "MINING_BAD_MINER_INFO";

export type RewardAccountInput =
  | { readonly ok: true; readonly account: string; readonly publicKeys: readonly string[] }
  | { readonly ok: false; readonly field: "account" | "keys"; readonly error: string };

/**
 * The reward account form: an account name and its public keys (hex, separated by commas,
 * spaces or new lines). A `k:<key>` account needs no keys: its key is its name. The node
 * checks the rest (a `k:` account with other keys is its refusal, shown beside the switch).
 */
export function rewardAccountInput(account: string, keys: string): RewardAccountInput {
  const name = account.trim();
  if (name === "")
    return { ok: false, field: "account", error: "Enter the account rewards go to." };
  const publicKeys = keys
    .split(/[\s,]+/)
    .map((k) => k.trim().toLowerCase())
    .filter((k) => k !== "");
  const bad = publicKeys.find((k) => !/^[0-9a-f]{64}$/.test(k));
  if (bad !== undefined) {
    return { ok: false, field: "keys", error: `Not a public key (64 hexadecimal digits): ${bad}` };
  }
  if (!name.startsWith("k:") && publicKeys.length === 0) {
    return {
      ok: false,
      field: "keys",
      error: "This account is not a k: account: give its public key(s).",
    };
  }
  return { ok: true, account: name, publicKeys };
}

/** 1 … the processor count (and the current value, should it be larger). */
export function threadChoices(cpus: number | undefined, current: number): number[] {
  const top = Math.max(1, Math.min(1024, Math.max(cpus ?? 1, current)));
  return Array.from({ length: top }, (_, i) => i + 1);
}

/** "5 s ago", "3 min ago", "2 h 5 min ago"; "never" for null. */
export function timeSince(atMs: number | null, nowMs: number): string {
  if (atMs === null) return "never";
  const s = Math.max(0, Math.floor((nowMs - atMs) / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ago`;
  return `${Math.floor(m / 60)} h ${m % 60} min ago`;
}

/** Time left as words: "about 40 s", "about 3 min", "unknown". */
export function timeLeft(etaS: number | null): string {
  if (etaS === null) return "time left unknown";
  if (etaS < 60) return `about ${Math.max(1, Math.round(etaS))} s left`;
  if (etaS < 3600) return `about ${Math.round(etaS / 60)} min left`;
  return `about ${(etaS / 3600).toFixed(1)} h left`;
}

/** Blocks found per chain, one entry per chain of the network (0 where none). */
export function blocksPerChain(
  blocks: readonly { readonly chainId: number }[],
  chainCount: number,
): { chain: string; blocks: number }[] {
  const counts = new Array<number>(chainCount).fill(0);
  for (const b of blocks)
    if (b.chainId < chainCount) counts[b.chainId] = (counts[b.chainId] ?? 0) + 1;
  return counts.map((n, c) => ({ chain: String(c), blocks: n }));
}

/** The miner's state in words. */
export function minerStateText(s: {
  readonly enabled: boolean;
  readonly onDemand: boolean;
  readonly active: boolean;
}): string {
  if (s.enabled) return "On";
  if (s.onDemand) return s.active ? "On demand: confirming transactions" : "On demand: idle";
  return "Off";
}

/** The folder of a file path (either separator), for "Open log folder". */
export function folderOf(path: string): string {
  const i = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return i <= 0 ? path : path.slice(0, i);
}

/** The settings form's values as a settings change, or what is wrong with them. */
export function settingsPatchOf(form: {
  readonly network: "development" | "testnet04" | "mainnet01";
  readonly port: string;
  readonly dataDir: string;
  readonly miningApi: boolean;
  readonly backupApi: boolean;
}):
  | {
      readonly ok: true;
      readonly value: {
        network: "development" | "testnet04" | "mainnet01";
        port: number;
        dataDir: string | null;
        miningApi: boolean;
        backupApi: boolean;
      };
    }
  | { readonly ok: false; readonly error: string } {
  const port = /^[0-9]{1,5}$/.test(form.port.trim()) ? Number(form.port.trim()) : -1;
  if (port < 0 || port > 65535) return { ok: false, error: "Port: a number from 0 to 65535." };
  const dir = form.dataDir.trim();
  if (dir !== "" && !(dir.startsWith("/") || /^[A-Za-z]:[\\/]/.test(dir))) {
    return { ok: false, error: "Data folder: a full path (or empty for the default)." };
  }
  return {
    ok: true,
    value: {
      network: form.network,
      port,
      dataDir: dir === "" ? null : dir,
      miningApi: form.miningApi,
      backupApi: form.backupApi,
    },
  };
}
