/**
 * The app settings file (`<userData>/settings.json`): read, validated against the contract,
 * changed by patches and written atomically (temporary file + rename), so a crash while
 * saving never leaves half a file. A file that cannot be parsed is set aside as
 * `settings.json.invalid` and the defaults are used, so a bad edit never stops the app.
 * @module
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { DesktopError, DesktopErrorCode } from "../errors.ts";
import {
  type AppSettings,
  applySettingsPatch,
  defaultSettings,
  parseSettings,
  type SettingsPatch,
} from "../ipc/contract.ts";

export type SettingsLog = { warn(message: string, fields?: Record<string, unknown>): void };

/** Settings in memory, backed by one JSON file. */
export class SettingsStore {
  readonly file: string;
  readonly #log: SettingsLog;
  #current: AppSettings;

  constructor(file: string, log: SettingsLog) {
    this.file = file;
    this.#log = log;
    this.#current = this.#load();
  }

  /** The settings as last read or written. */
  read(): AppSettings {
    return this.#current;
  }

  /**
   * Applies `patch` and saves the file.
   * @throws DesktopError `DESKTOP_SETTINGS_WRITE_FAILED` when the file cannot be written
   *   (the settings in memory stay unchanged then).
   */
  write(patch: SettingsPatch): AppSettings {
    const next = applySettingsPatch(this.#current, patch);
    const tmp = `${this.file}.tmp`;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
      renameSync(tmp, this.file);
    } catch (e) {
      throw new DesktopError(
        {
          code: DesktopErrorCode.SettingsWriteFailed,
          file: this.file,
          reason: e instanceof Error ? e.message : String(e),
        },
        `Could not save the settings to ${this.file}.`,
        { cause: e },
      );
    }
    this.#current = next;
    return next;
  }

  #load(): AppSettings {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (e) {
      if (isNotFound(e)) return defaultSettings;
      this.#log.warn("Settings file unreadable; using defaults", {
        file: this.file,
        error: String(e),
      });
      return defaultSettings;
    }
    let reason: string;
    try {
      const parsed = parseSettings(JSON.parse(text));
      if (parsed.ok) return parsed.value;
      reason = parsed.error;
    } catch (e) {
      reason = e instanceof Error ? e.message : String(e);
    }
    const invalid = new DesktopError(
      { code: DesktopErrorCode.SettingsInvalid, file: this.file, reason },
      `The settings file ${this.file} is invalid (${reason}); using the defaults.`,
    );
    this.#log.warn(invalid.message, { code: invalid.code });
    try {
      renameSync(this.file, `${this.file}.invalid`);
    } catch {
      // Keeping the bad file in place is harmless: the next write replaces it.
    }
    return defaultSettings;
  }
}

/**
 * The settings a file holds, read now (the headless launcher's `--settings FILE`, read
 * again on every restart); a missing file holds the defaults.
 * @throws DesktopError `DESKTOP_SETTINGS_INVALID` naming the file and what is wrong.
 */
export function readSettingsFile(file: string): AppSettings {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if (isNotFound(e)) return defaultSettings;
    throw invalidFile(file, e instanceof Error ? e.message : String(e));
  }
  let parsed: ReturnType<typeof parseSettings>;
  try {
    parsed = parseSettings(JSON.parse(text));
  } catch (e) {
    throw invalidFile(file, e instanceof Error ? e.message : String(e));
  }
  if (!parsed.ok) throw invalidFile(file, parsed.error);
  return parsed.value;
}

function invalidFile(file: string, reason: string): DesktopError {
  return new DesktopError(
    { code: DesktopErrorCode.SettingsInvalid, file, reason },
    `The settings file ${file} is invalid (${reason}).`,
  );
}

function isNotFound(e: unknown): boolean {
  return e instanceof Error && "code" in e && e.code === "ENOENT";
}
