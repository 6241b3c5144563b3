/**
 * The node's recent log lines, kept in memory for the Node page's log view
 * (`GET /app/api/node/log`, api/routes/appNodeRoutes.ts): every line the node
 * logs passes through {@link RecentLog.wrap}, which keeps the last
 * {@link RECENT_LOG_LINES} and hands each line on to the host's logger (the
 * desktop's log file, the CLI's stderr), if any. Bounded, so a chatty node
 * cannot grow it.
 * @module
 */

/** A structured log sink: the host's (the desktop's log file, the CLI's stderr), or the node's own. */
export type NodeLog = {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
};

/** Lines kept. */
export const RECENT_LOG_LINES = 1000;

export const LOG_LEVELS = ["info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogLine = {
  /** Numbers the lines the node logged since it started (a stable key). */
  readonly seq: number;
  /** ms since the UNIX epoch. */
  readonly at: number;
  readonly level: LogLevel;
  readonly message: string;
  readonly fields?: Record<string, unknown> | undefined;
};

/** Fields as JSON-safe values (a bigint or an Error would not serialise). */
function plainFields(
  fields: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (fields === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    out[k] =
      typeof v === "bigint"
        ? v.toString()
        : v instanceof Error
          ? v.message
          : typeof v === "function" || typeof v === "symbol"
            ? String(v)
            : v;
  }
  return out;
}

export class RecentLog {
  readonly #lines: LogLine[] = [];
  readonly #limit: number;
  readonly #now: () => number;
  #seq = 0;

  constructor(options: { limit?: number; now?: () => number } = {}) {
    this.#limit = options.limit ?? RECENT_LOG_LINES;
    this.#now = options.now ?? Date.now;
  }

  /** A logger that keeps each line and passes it on to `next`. */
  wrap(next: NodeLog | undefined): NodeLog {
    const at = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
      this.add(level, message, fields);
      next?.[level](message, fields);
    };
    return { info: at("info"), warn: at("warn"), error: at("error") };
  }

  add(level: LogLevel, message: string, fields?: Record<string, unknown>): void {
    this.#lines.push({
      seq: ++this.#seq,
      at: this.#now(),
      level,
      message,
      fields: plainFields(fields),
    });
    if (this.#lines.length > this.#limit) this.#lines.splice(0, this.#lines.length - this.#limit);
  }

  /** The last `limit` lines at `minLevel` or above, oldest first. */
  lines(minLevel: LogLevel = "info", limit = this.#limit): LogLine[] {
    const min = LOG_LEVELS.indexOf(minLevel);
    const kept = this.#lines.filter((l) => LOG_LEVELS.indexOf(l.level) >= min);
    return kept.slice(Math.max(0, kept.length - limit));
  }
}
