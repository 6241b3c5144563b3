/**
 * The built-in miner's state, from the app-private route `GET/POST /app/api/mining`
 * (docs/desktop.md §3.3; not part of the ledger spec, loopback only).
 * @module
 */
import type { MinerChange } from "../../../src-node/appContract/appRoutes.ts";
import {
  array,
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
  /** Mine on demand is on (it mines only while `enabled` is off). */
  readonly onDemand: boolean;
  /** The node's network offers mine on demand (development networks). */
  readonly onDemandAvailable: boolean;
  /** Threads are searching now. */
  readonly active: boolean;
  /** When this miner last found a block, ms since the UNIX epoch. */
  readonly lastBlockAt: number | null;
  /** Held while the node catches up with its peers. */
  readonly held: boolean;
  /**
   * Who the mined blocks pay: the reward account, else the development account on development
   * networks; null when the miner cannot mine for want of an account.
   */
  readonly payee: string | null;
  /** What mine on demand still owes while it runs: each chain and the height it must reach. */
  readonly demand: readonly { readonly chainId: number; readonly height: number }[];
};

/** The body of `POST /app/api/mining`: any subset of the fields (the shared table's type). */
export type MiningChange = MinerChange;

/** `GET /app/api/mining/history`: the last hour. */
export type MiningHistory = {
  readonly hashRate: readonly { readonly at: number; readonly rate: number }[];
  readonly blocks: readonly {
    readonly at: number;
    readonly chainId: number;
    readonly height: number;
  }[];
};

export function parseMiningHistory(raw: unknown): Decoded<MiningHistory> {
  return decode(raw, (x) => {
    const o = record(x, "history");
    return {
      hashRate: array(o.hashRate, "hashRate").map((s, i) => {
        const r = record(s, `hashRate.${i}`);
        return {
          at: natural(r.at, `hashRate.${i}.at`),
          rate: nonNegative(r.rate, `hashRate.${i}.rate`),
        };
      }),
      blocks: array(o.blocks, "blocks").map((b, i) => {
        const r = record(b, `blocks.${i}`);
        return {
          at: natural(r.at, `blocks.${i}.at`),
          chainId: natural(r.chainId, `blocks.${i}.chainId`),
          height: natural(r.height, `blocks.${i}.height`),
        };
      }),
    };
  });
}

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
      onDemand: o.onDemand === undefined ? false : boolean(o.onDemand, "onDemand"),
      onDemandAvailable:
        o.onDemandAvailable === undefined
          ? false
          : boolean(o.onDemandAvailable, "onDemandAvailable"),
      active: o.active === undefined ? boolean(o.enabled, "enabled") : boolean(o.active, "active"),
      lastBlockAt:
        o.lastBlockAt === undefined || o.lastBlockAt === null
          ? null
          : natural(o.lastBlockAt, "lastBlockAt"),
      // Older nodes do not say: what they did is read from the other fields.
      held: o.held === undefined ? false : boolean(o.held, "held"),
      payee:
        o.payee === undefined
          ? o.account === null
            ? null
            : string(o.account, "account")
          : o.payee === null
            ? null
            : string(o.payee, "payee"),
      demand:
        o.demand === undefined
          ? []
          : array(o.demand, "demand").map((d, i) => {
              const r = record(d, `demand.${i}`);
              return {
                chainId: natural(r.chainId, `demand.${i}.chainId`),
                height: natural(r.height, `demand.${i}.height`),
              };
            }),
    };
  });
}
