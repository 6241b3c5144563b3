/**
 * The Node page's plain logic: what the stream state, the health check and the miner's state
 * say to the user (why it is or is not mining, and what would make it), the reward account
 * form, and a refused mining change (api/miningRefusal.ts, re-exported here).
 * @module
 */
import type { ClientError } from "../../api/clientError.ts";
import { clientErrorWords } from "../../api/errorWords.ts";
import type { StreamState } from "../../api/headerStream.ts";
import type { MiningStatus } from "../../api/miningStatus.ts";

// The refusal's words are shared with the wallet's "Turn mining on" (api/miningRefusal.ts).
export {
  isForbiddenHere,
  MINING_BAD_MINER_INFO,
  MINING_CANNOT_START,
  MINING_FORBIDDEN,
  type MiningRefusal,
  miningRefusal,
} from "../../api/miningRefusal.ts";

import { formatInteger } from "../../format/number.ts";

export const streamText: Record<StreamState, string> = {
  connecting: "Connecting to live updates…",
  open: "Live: new blocks appear as they are added.",
  reconnecting: "Live updates interrupted; reconnecting…",
  closed: "Live updates stopped.",
};

export type HealthView =
  | { readonly kind: "checking" }
  | { readonly kind: "healthy"; readonly text: string }
  | { readonly kind: "down"; readonly text: string; readonly details: string | null };

/** The health line from the last health-check reply (`text`) or failure (`error`). */
export function healthView(text: string | undefined, error: ClientError | null): HealthView {
  if (error !== null) return { kind: "down", ...clientErrorWords(error) };
  if (text === undefined) return { kind: "checking" };
  return { kind: "healthy", text: text.trim() || "the node answers" };
}

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

/** The miner's state in a few words, beside the Mining switch. */
export function minerStateText(s: {
  readonly enabled: boolean;
  readonly onDemand: boolean;
  readonly active: boolean;
  readonly held?: boolean | undefined;
}): string {
  if (s.held === true) return s.enabled ? "On, paused" : "On demand: paused";
  if (s.enabled) return "On";
  if (s.onDemand) return s.active ? "On demand: confirming transactions" : "On demand: idle";
  return "Off";
}

/** What would make the miner mine, when it does not: a switch to turn on, or an account to choose. */
export type MinerFix = "on-demand" | "account" | null;

export type MinerReason = {
  /** Why it is or is not mining, and what to do, in sentences. */
  readonly text: string;
  readonly fix: MinerFix;
};

/** "chain 3 up to height 6, chain 0 up to height 4" */
function demandText(demand: MiningStatus["demand"]): string {
  return demand.map((d) => `chain ${d.chainId} up to height ${formatInteger(d.height)}`).join(", ");
}

/** Who the blocks pay, said so that a missing reward account is no surprise. */
function payeeText(s: Pick<MiningStatus, "account" | "payee">): string {
  if (s.payee === null) return "";
  return s.payee === s.account
    ? " The blocks pay your reward account."
    : ` The blocks pay the test account ${s.payee}, as no reward account is set.`;
}

/**
 * Why the miner is or is not mining, always shown with its state (issue 36): mining every
 * chain, mining what waits (which chains, up to which heights), idle with nothing waiting,
 * paused while the node catches up, or off (and what would turn it on).
 */
export function minerReason(s: MiningStatus): MinerReason {
  if (s.held) {
    return {
      text: "Not mining while the node catches up with its peers; it mines again once it has.",
      fix: null,
    };
  }
  if (s.enabled) {
    return s.active
      ? { text: `Mining every chain, all the time.${payeeText(s)}`, fix: null }
      : {
          text: "Not mining right now: the miner stopped. The node's log (below) says why.",
          fix: null,
        };
  }
  if (s.onDemand) {
    if (s.active) {
      const what = s.demand.length === 0 ? "" : ` (${demandText(s.demand)})`;
      return {
        text: `Mining the blocks that waiting transactions and cross-chain transfers need${what}; it stops when they are confirmed.${payeeText(s)}`,
        fix: null,
      };
    }
    return {
      text: `Not mining: nothing waits for a block. When a transaction or a cross-chain transfer is sent to this node, the blocks it needs are mined within seconds.${payeeText(s)}`,
      fix: null,
    };
  }
  if (s.payee === null) {
    return {
      text: "Not mining: mining needs a reward account. Choose one under “Reward account”, then turn Mining on.",
      fix: "account",
    };
  }
  return s.onDemandAvailable
    ? {
        text: "Not mining: transactions sent to this node wait until Mining or Mine on demand is on (or another node mines them).",
        fix: "on-demand",
      }
    : {
        text: "Not mining: transactions wait for the network's other miners. Turn Mining on to mine here too.",
        fix: null,
      };
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
