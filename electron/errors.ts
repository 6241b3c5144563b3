/**
 * Errors of the desktop shell: the IPC bridge, the settings file, node start-up and
 * shutdown. Every code is listed in docs/desktop.md (test/unit/electronErrorCodes.test.ts
 * keeps the two in step). Over IPC these travel as values (`{code, message}`), never as
 * thrown errors with stacks.
 * @module
 */
import { NodeError } from "../src-node/errors/nodeError.ts";

export const DesktopErrorCode = {
  IpcInvalidArgs: "DESKTOP_IPC_INVALID_ARGS",
  IpcForbiddenSender: "DESKTOP_IPC_FORBIDDEN_SENDER",
  IpcFailed: "DESKTOP_IPC_FAILED",
  NotADirectory: "DESKTOP_NOT_A_DIRECTORY",
  OpenFailed: "DESKTOP_OPEN_FAILED",
  FolderNotAllowed: "DESKTOP_FOLDER_NOT_ALLOWED",
  SettingsInvalid: "DESKTOP_SETTINGS_INVALID",
  SettingsWriteFailed: "DESKTOP_SETTINGS_WRITE_FAILED",
  NodeStartFailed: "DESKTOP_NODE_START_FAILED",
  NativeModuleMissing: "DESKTOP_NATIVE_MODULE_MISSING",
  ShutdownTimeout: "DESKTOP_SHUTDOWN_TIMEOUT",
} as const;

export type DesktopErrorCodeValue = (typeof DesktopErrorCode)[keyof typeof DesktopErrorCode];

export type DesktopErrorType =
  | { code: typeof DesktopErrorCode.IpcInvalidArgs; channel: string; reason: string }
  | { code: typeof DesktopErrorCode.IpcForbiddenSender; channel: string; senderUrl: string }
  | { code: typeof DesktopErrorCode.IpcFailed; channel: string }
  | { code: typeof DesktopErrorCode.NotADirectory; path: string }
  | { code: typeof DesktopErrorCode.OpenFailed; path: string; reason: string }
  | { code: typeof DesktopErrorCode.FolderNotAllowed; path: string; reason: string }
  | { code: typeof DesktopErrorCode.SettingsInvalid; file: string; reason: string }
  | { code: typeof DesktopErrorCode.SettingsWriteFailed; file: string; reason: string }
  | { code: typeof DesktopErrorCode.NodeStartFailed; reason: string; nodeCode: string | null }
  | { code: typeof DesktopErrorCode.NativeModuleMissing; path: string }
  | { code: typeof DesktopErrorCode.ShutdownTimeout; ms: number };

export class DesktopError extends NodeError<DesktopErrorType> {}

/** True when `e` is a DesktopError (of one of `codes`, when given). */
export function isDesktopError(e: unknown, ...codes: DesktopErrorCodeValue[]): e is DesktopError {
  return e instanceof DesktopError && (codes.length === 0 || codes.includes(e.type.code));
}
