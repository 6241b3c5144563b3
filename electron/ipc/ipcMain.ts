/**
 * The main-process side of the desktop bridge: registers one handler per contract channel
 * on `ipcMain`. Every message is checked before its handler runs: the sending frame must
 * still exist and show the app's own origin, and the arguments must pass the channel's
 * parser. Handlers may throw `DesktopError`s; the caller always receives a value
 * (`InvokeResult`), never a stack. This is the only module that registers IPC handlers.
 * @module
 */
import { DesktopError, DesktopErrorCode } from "../errors.ts";
import {
  type ArgsOf,
  argParsers,
  type BridgeError,
  type Channel,
  channels,
  type InvokeResult,
  type Parsed,
  type ResultOf,
} from "./contract.ts";

/** The part of an invoke event the checks read (Electron's `IpcMainInvokeEvent`). */
export type InvokeEventLike = { readonly senderFrame: { readonly url: string } | null };

/** The part of Electron's `ipcMain` this module uses; tests pass a fake. */
export type IpcMainLike = {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
};

/** One implementation per channel, typed by the contract. */
export type InvokeHandlers = { readonly [C in Channel]: (args: ArgsOf<C>) => Promise<ResultOf<C>> };

export type IpcLog = { warn(message: string, fields?: Record<string, unknown>): void };

export type RegisterOptions = {
  /** True for URLs of the app's own pages; anything else is refused. */
  readonly isTrustedUrl: (url: string) => boolean;
  readonly log: IpcLog;
};

function errorResult(error: BridgeError): InvokeResult<never> {
  return { ok: false, error };
}

/**
 * Runs one call: sender check, argument check, handler. Exported for tests that drive a
 * channel without a fake ipcMain.
 */
export async function dispatchInvoke<C extends Channel>(
  channel: C,
  handler: (args: ArgsOf<C>) => Promise<ResultOf<C>>,
  event: InvokeEventLike,
  rawArgs: unknown,
  options: RegisterOptions,
): Promise<InvokeResult<ResultOf<C>>> {
  const senderUrl = event.senderFrame?.url ?? "";
  if (event.senderFrame === null || !options.isTrustedUrl(senderUrl)) {
    options.log.warn("Refused IPC from an untrusted sender", { channel, senderUrl });
    return errorResult({
      code: DesktopErrorCode.IpcForbiddenSender,
      message: "This action is only available to the app's own pages.",
    });
  }
  const parsed: Parsed<ArgsOf<C>> = argParsers[channel](rawArgs);
  if (!parsed.ok) {
    return errorResult({
      code: DesktopErrorCode.IpcInvalidArgs,
      message: `Invalid arguments for ${channel}: ${parsed.error}`,
    });
  }
  try {
    return { ok: true, value: await handler(parsed.value) };
  } catch (e) {
    if (e instanceof DesktopError) return errorResult({ code: e.code, message: e.message });
    // A bug or an unexpected failure: log it here, give the renderer no internals.
    options.log.warn("IPC handler failed", {
      channel,
      error: e instanceof Error ? e.message : String(e),
    });
    return errorResult({
      code: DesktopErrorCode.IpcFailed,
      message: `The desktop action ${channel} failed; see the log file for details.`,
    });
  }
}

/**
 * Registers every channel's handler on `ipc`; returns a function that removes them (used
 * at shutdown and by tests).
 */
export function registerInvokeHandlers(
  ipc: IpcMainLike,
  handlers: InvokeHandlers,
  options: RegisterOptions,
): () => void {
  const register = <C extends Channel>(channel: C) => {
    const handler = handlers[channel];
    ipc.handle(channel, (event, rawArgs) =>
      dispatchInvoke(channel, handler, event, rawArgs, options),
    );
  };
  for (const channel of channels) register(channel);
  return () => {
    for (const channel of channels) ipc.removeHandler(channel);
  };
}
