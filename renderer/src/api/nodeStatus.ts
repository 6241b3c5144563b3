/**
 * The node's own status for its app, from `GET /app/api/node/status` and
 * `GET /app/api/node/log` (docs/desktop.md §3.3; not part of the ledger spec):
 * facts the Node page shows, what the node is catching up on (the banner),
 * and its recent log lines.
 * @module
 */
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

export type CatchUpItem = {
  readonly what: string;
  readonly done: number;
  readonly total: number;
  /** Seconds left; null while unknown. */
  readonly etaS: number | null;
};

export type NodeStatus = {
  readonly network: string;
  readonly dataDir: string;
  readonly logFile: string | null;
  /** Processors of the node's computer: the most threads worth choosing. */
  readonly cpus: number;
  /** Whether this launch of the node serves the public mining and backup APIs. */
  readonly publicApis: { readonly mining: boolean; readonly backup: boolean };
  readonly catchingUp: readonly CatchUpItem[];
};

export const LOG_LEVELS = ["info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogLine = {
  readonly seq: number;
  readonly at: number;
  readonly level: LogLevel;
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>> | null;
};

export function parseNodeStatus(raw: unknown): Decoded<NodeStatus> {
  return decode(raw, (x) => {
    const o = record(x, "status");
    const cpus = natural(o.cpus, "cpus");
    if (cpus < 1) reject("cpus", "at least 1");
    return {
      network: string(o.network, "network"),
      dataDir: string(o.dataDir, "dataDir"),
      logFile: o.logFile === null ? null : string(o.logFile, "logFile"),
      cpus,
      publicApis: (() => {
        const p = record(o.publicApis, "publicApis");
        return {
          mining: boolean(p.mining, "publicApis.mining"),
          backup: boolean(p.backup, "publicApis.backup"),
        };
      })(),
      catchingUp: array(o.catchingUp, "catchingUp").map((item, i) => {
        const r = record(item, `catchingUp.${i}`);
        return {
          what: string(r.what, `catchingUp.${i}.what`),
          done: nonNegative(r.done, `catchingUp.${i}.done`),
          total: nonNegative(r.total, `catchingUp.${i}.total`),
          etaS: r.etaS === null ? null : nonNegative(r.etaS, `catchingUp.${i}.etaS`),
        };
      }),
    };
  });
}

export function parseNodeLog(raw: unknown): Decoded<readonly LogLine[]> {
  return decode(raw, (x) =>
    array(record(x, "log").lines, "lines").map((item, i) => {
      const r = record(item, `lines.${i}`);
      const level = string(r.level, `lines.${i}.level`);
      if (!(LOG_LEVELS as readonly string[]).includes(level)) {
        reject(`lines.${i}.level`, LOG_LEVELS.join(", "));
      }
      return {
        seq: natural(r.seq, `lines.${i}.seq`),
        at: natural(r.at, `lines.${i}.at`),
        level: level as LogLevel,
        message: string(r.message, `lines.${i}.message`),
        fields: r.fields === undefined ? null : record(r.fields, `lines.${i}.fields`),
      };
    }),
  );
}
