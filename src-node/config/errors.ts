/**
 * Errors of node configuration (flags and the YAML file): every error names
 * the key or flag it is about.
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";

export const ConfigErrorCode = {
  BadValue: "CONFIG_BAD_VALUE",
  UnknownKey: "CONFIG_UNKNOWN_KEY",
  BadFile: "CONFIG_BAD_FILE",
  BadFlag: "CONFIG_BAD_FLAG",
} as const;

export type ConfigErrorType =
  /** `key`: the dotted key (`port`, `backup.directory`) or flag (`--port`). */
  | { code: typeof ConfigErrorCode.BadValue; key: string; reason: string }
  | { code: typeof ConfigErrorCode.UnknownKey; key: string; file: string }
  | { code: typeof ConfigErrorCode.BadFile; file: string; reason: string }
  | { code: typeof ConfigErrorCode.BadFlag; flag: string; reason: string };

export class ConfigError extends NodeError<ConfigErrorType> {}

export function badValue(key: string, reason: string): ConfigError {
  return new ConfigError({ code: ConfigErrorCode.BadValue, key, reason }, `${key}: ${reason}`);
}
