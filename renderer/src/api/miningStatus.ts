/**
 * The built-in miner's state, from the app-private route `GET/POST /app/api/mining`
 * (docs/desktop.md §3.3; not part of the ledger spec, loopback only).
 * @module
 */
import {
  boolean,
  type Decoded,
  decode,
  natural,
  nonNegative,
  record,
  reject,
  string,
} from "./decode.ts";

export type MiningStatus = {
  readonly enabled: boolean;
  readonly threads: number;
  /** The account block rewards go to; null when none is set. */
  readonly account: string | null;
  /** Hashes per second over the last few seconds; 0 when stopped. */
  readonly hashRate: number;
  /** Blocks this node has mined since it started. */
  readonly blocksFound: number;
};

/** The body of `POST /app/api/mining`: any subset of the fields. */
export type MiningChange = {
  readonly enabled?: boolean;
  readonly threads?: number;
  readonly account?: string;
};

export function parseMiningStatus(raw: unknown): Decoded<MiningStatus> {
  return decode(raw, (x) => {
    const o = record(x, "mining");
    const threads = natural(o.threads, "threads");
    if (threads > 1024) reject("threads", "at most 1024");
    return {
      enabled: boolean(o.enabled, "enabled"),
      threads,
      account: o.account === null ? null : string(o.account, "account"),
      hashRate: nonNegative(o.hashRate, "hashRate"),
      blocksFound: natural(o.blocksFound, "blocksFound"),
    };
  });
}
