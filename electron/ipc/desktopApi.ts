/**
 * Builds the renderer-facing desktop API from a raw `invoke` (ipcRenderer.invoke in the
 * preload). Arguments are checked with the contract's parsers before anything crosses IPC,
 * and every outcome, including a broken reply, comes back as an `InvokeResult` value, so
 * the renderer never has to catch.
 * @module
 */
import { DesktopErrorCode } from "../errors.ts";
import {
  type ArgsOf,
  argParsers,
  type Channel,
  type DesktopApi,
  type InvokeResult,
  type Parsed,
  parseInvokeEnvelope,
  type ResultOf,
} from "./contract.ts";

/** Sends one message on a channel and resolves to main's raw reply. */
export type RawInvoke = (channel: Channel, args: unknown) => Promise<unknown>;

type Call = <C extends Channel>(channel: C, args: ArgsOf<C>) => Promise<InvokeResult<ResultOf<C>>>;

function makeCall(invoke: RawInvoke): Call {
  return async <C extends Channel>(channel: C, args: ArgsOf<C>) => {
    // The renderer is untyped at run time: check what it really passed.
    const parsed: Parsed<unknown> = argParsers[channel](args);
    if (!parsed.ok) {
      return {
        ok: false,
        error: {
          code: DesktopErrorCode.IpcInvalidArgs,
          message: `Invalid arguments for ${channel}: ${parsed.error}`,
        },
      };
    }
    let reply: unknown;
    try {
      reply = await invoke(channel, parsed.value);
    } catch {
      return {
        ok: false,
        error: { code: DesktopErrorCode.IpcFailed, message: `${channel} could not be delivered` },
      };
    }
    const envelope = parseInvokeEnvelope(reply);
    if (!envelope.ok) {
      return {
        ok: false,
        error: { code: DesktopErrorCode.IpcFailed, message: `${channel}: ${envelope.error}` },
      };
    }
    // Main's handlers are typed by the same contract; the value is trusted to match.
    return envelope.value as InvokeResult<ResultOf<C>>;
  };
}

/** The object the preload exposes as `window.weftDesktop`. */
export function createDesktopApi(invoke: RawInvoke): DesktopApi {
  const call = makeCall(invoke);
  return {
    appInfo: () => call("app/info", null),
    chooseFolder: (a) => call("dialog/choose-folder", a ?? {}),
    openFolder: (path) => call("shell/open-folder", { path }),
    readSettings: () => call("settings/read", null),
    writeSettings: (patch) => call("settings/write", patch),
  };
}
