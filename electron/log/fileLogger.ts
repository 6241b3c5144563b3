/**
 * The desktop shell's log: one line per entry, `time level message {fields}`, appended to a
 * file under the app's log directory (shown to the user when start-up fails). Writes are
 * synchronous so nothing is lost when the process ends right after an error; the shell
 * logs rarely. Never log seeds, keys, passwords or backup contents here. The file is the
 * user's alone (0600, in a folder the logger makes 0700), as the node's files are.
 * @module
 */
import { appendFileSync, chmodSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

export type LogFields = Record<string, unknown>;

export type Logger = {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
};

export type LogLevel = "info" | "warn" | "error";

/** One log line (without the newline). */
export function formatLogLine(
  time: Date,
  level: LogLevel,
  message: string,
  fields?: LogFields,
): string {
  const extra =
    fields === undefined || Object.keys(fields).length === 0 ? "" : ` ${safeJson(fields)}`;
  return `${time.toISOString()} ${level.toUpperCase().padEnd(5)} ${message.replaceAll("\n", " ")}${extra}`;
}

function safeJson(fields: LogFields): string {
  try {
    return JSON.stringify(fields, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
  } catch {
    return '"<unserializable fields>"';
  }
}

export type FileLoggerOptions = {
  readonly file: string;
  /** Also echo to the console (development). */
  readonly echo: boolean;
  readonly now?: (() => Date) | undefined;
};

/** A logger appending to `options.file`; a failing disk never throws into the caller. */
export function createFileLogger(options: FileLoggerOptions): Logger {
  const now = options.now ?? (() => new Date());
  let dirReady = false;
  const write = (level: LogLevel, message: string, fields?: LogFields) => {
    const line = formatLogLine(now(), level, message, fields);
    if (options.echo) console.error(line);
    try {
      if (!dirReady) {
        mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 });
        appendFileSync(options.file, "", { mode: 0o600 });
        // A log an older release left readable by others.
        chmodSync(options.file, 0o600);
        dirReady = true;
      }
      appendFileSync(options.file, `${line}\n`, { mode: 0o600 });
    } catch {
      // Logging must never take the app down; the console echo (if any) still has it.
    }
  };
  return {
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
  };
}
