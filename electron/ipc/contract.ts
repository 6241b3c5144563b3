/**
 * The desktop bridge contract: every invoke channel between the renderer (through the
 * preload) and the main process, with its argument parser and result type. Main, preload
 * and renderer all import this one file, so a channel cannot drift between them. It imports
 * nothing from Node.js or Electron, so the renderer's build can include it.
 *
 * Channels are named `area/verb`. Results cross IPC as values (`InvokeResult`), never as
 * thrown errors. Retired channel names stay below as comments and are never reused.
 * @module
 */

import type { Result } from "../../src-node/errors/result.ts";

/** Networks the desktop app can run. `test-singleton` is for tests only. */
export const desktopNetworks = ["development", "testnet04", "mainnet01"] as const;
export type DesktopNetwork = (typeof desktopNetworks)[number];

/** The app settings file (`<userData>/settings.json`); read at start-up by the main process. */
export type AppSettings = {
  readonly version: 1;
  /** Network the node runs. */
  readonly network: DesktopNetwork;
  /** Absolute data directory; null = the default (`<userData>/data`). */
  readonly dataDir: string | null;
  /** Loopback port of the node's HTTP server; 0 = any free port. */
  readonly port: number;
  /** Start the built-in miner with the node. */
  readonly miningOnStart: boolean;
  /** Worker threads of the built-in miner. */
  readonly miningThreads: number;
  /** Absolute folder for one-click backups; null = not chosen yet. */
  readonly backupDir: string | null;
  /** Serve the public mining API (`--enable-mining-api`); absent in older files: false. */
  readonly miningApi: boolean;
  /** Serve the public backup API (`--enable-backup-api`); absent in older files: false. */
  readonly backupApi: boolean;
};

/** A change to the settings: any subset of the writable fields. */
export type SettingsPatch = {
  readonly network?: DesktopNetwork;
  readonly dataDir?: string | null;
  readonly port?: number;
  readonly miningOnStart?: boolean;
  readonly miningThreads?: number;
  readonly backupDir?: string | null;
  readonly miningApi?: boolean;
  readonly backupApi?: boolean;
};

export const defaultSettings: AppSettings = {
  version: 1,
  network: "development",
  dataDir: null,
  port: 1848,
  miningOnStart: false,
  miningThreads: 1,
  backupDir: null,
  miningApi: false,
  backupApi: false,
};

/** What the desktop shell tells the renderer about itself. */
export type AppInfo = {
  readonly version: string;
  /** The node's data directory in use (the default resolved). */
  readonly dataDir: string;
  /** The main process's log file. */
  readonly logFile: string;
};

export type ChooseFolderArgs = {
  readonly title?: string;
  readonly defaultPath?: string;
};

/** An error as the renderer sees it: a code listed in docs/desktop.md and a message. */
export type BridgeError = { readonly code: string; readonly message: string };

export type InvokeResult<T> = Result<T, BridgeError>;

/** Channel → argument and result types. */
export type InvokeChannels = {
  "app/info": { args: null; result: AppInfo };
  "dialog/choose-folder": { args: ChooseFolderArgs; result: string | null };
  "shell/open-folder": { args: { readonly path: string }; result: null };
  "settings/read": { args: null; result: AppSettings };
  "settings/write": { args: SettingsPatch; result: AppSettings };
};

export type Channel = keyof InvokeChannels;
export type ArgsOf<C extends Channel> = InvokeChannels[C]["args"];
export type ResultOf<C extends Channel> = InvokeChannels[C]["result"];

/** A parse outcome: the value, or why the input was rejected. */
export type Parsed<T> = Result<T>;

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(reason: string): Parsed<T> => ({ ok: false, error: reason });

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function onlyKeys(x: Record<string, unknown>, allowed: readonly string[]): string | null {
  const extra = Object.keys(x).filter((k) => !allowed.includes(k));
  return extra.length === 0 ? null : `unknown field(s): ${extra.join(", ")}`;
}

const MAX_PATH = 4096;

/** An absolute path in POSIX (`/…`) or Windows (`C:\…`, `\\server\…`) form, no NUL bytes. */
export function isAbsolutePath(p: string): boolean {
  if (p.length === 0 || p.length > MAX_PATH || p.includes("\0")) return false;
  return p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith("\\\\");
}

function parseNoArgs(raw: unknown): Parsed<null> {
  return raw === null || raw === undefined ? ok(null) : fail("takes no arguments");
}

function parseOptionalString(
  x: Record<string, unknown>,
  key: string,
  max: number,
): Parsed<string | undefined> {
  const v = x[key];
  if (v === undefined) return ok(undefined);
  if (typeof v !== "string" || v.length > max) return fail(`${key} must be a string`);
  return ok(v);
}

function parseChooseFolderArgs(raw: unknown): Parsed<ChooseFolderArgs> {
  if (raw === undefined || raw === null) return ok({});
  if (!isRecord(raw)) return fail("arguments must be an object");
  const extra = onlyKeys(raw, ["title", "defaultPath"]);
  if (extra !== null) return fail(extra);
  const title = parseOptionalString(raw, "title", 200);
  if (!title.ok) return fail(title.error);
  const defaultPath = parseOptionalString(raw, "defaultPath", MAX_PATH);
  if (!defaultPath.ok) return fail(defaultPath.error);
  if (defaultPath.value !== undefined && !isAbsolutePath(defaultPath.value)) {
    return fail("defaultPath must be an absolute path");
  }
  return ok({
    ...(title.value === undefined ? {} : { title: title.value }),
    ...(defaultPath.value === undefined ? {} : { defaultPath: defaultPath.value }),
  });
}

/**
 * A network or device path: Windows UNC (`\\server\share`, `//server/share`),
 * `\\?\…` and `\\.\…`. Opening one reaches another computer (and hands it
 * the user's credentials) or a device, never a folder of this app.
 */
export function isNetworkPath(p: string): boolean {
  return /^[\\/]{2}/.test(p);
}

function parseOpenFolderArgs(raw: unknown): Parsed<{ readonly path: string }> {
  if (!isRecord(raw)) return fail("arguments must be an object with a path");
  const extra = onlyKeys(raw, ["path"]);
  if (extra !== null) return fail(extra);
  const path = raw.path;
  if (typeof path !== "string" || !isAbsolutePath(path))
    return fail("path must be an absolute path");
  if (isNetworkPath(path)) return fail("path must be a local folder, not a network path");
  return ok({ path });
}

function parseNetwork(v: unknown): Parsed<DesktopNetwork> {
  const found = desktopNetworks.find((n) => n === v);
  return found === undefined
    ? fail(`network must be one of ${desktopNetworks.join(", ")}`)
    : ok(found);
}

function parseDirOrNull(v: unknown, key: string): Parsed<string | null> {
  if (v === null) return ok(null);
  if (typeof v === "string" && isAbsolutePath(v)) return ok(v);
  return fail(`${key} must be an absolute path or null`);
}

function parseIntIn(v: unknown, key: string, min: number, max: number): Parsed<number> {
  if (typeof v === "number" && Number.isInteger(v) && v >= min && v <= max) return ok(v);
  return fail(`${key} must be an integer from ${min} to ${max}`);
}

function parseBool(v: unknown, key: string): Parsed<boolean> {
  return typeof v === "boolean" ? ok(v) : fail(`${key} must be true or false`);
}

type MutablePatch = { -readonly [K in keyof SettingsPatch]: SettingsPatch[K] };

const settingsKeys: readonly (keyof SettingsPatch)[] = [
  "network",
  "dataDir",
  "port",
  "miningOnStart",
  "miningThreads",
  "backupDir",
  "miningApi",
  "backupApi",
];

/** Keys every settings file has (the later ones default when absent). */
const requiredSettingsKeys: readonly (keyof SettingsPatch)[] = settingsKeys.filter(
  (k) => k !== "miningApi" && k !== "backupApi",
);

/** Parses a settings change: an object with a subset of the writable fields, each valid. */
export function parseSettingsPatch(raw: unknown): Parsed<SettingsPatch> {
  if (!isRecord(raw)) return fail("settings must be an object");
  const extra = onlyKeys(raw, settingsKeys);
  if (extra !== null) return fail(extra);
  const patch: MutablePatch = {};
  const network = present(raw, "network", parseNetwork);
  if (!network.ok) return fail(network.error);
  if (network.value !== undefined) patch.network = network.value;
  const dataDir = present(raw, "dataDir", (v) => parseDirOrNull(v, "dataDir"));
  if (!dataDir.ok) return fail(dataDir.error);
  if (dataDir.value !== undefined) patch.dataDir = dataDir.value;
  const port = present(raw, "port", (v) => parseIntIn(v, "port", 0, 65535));
  if (!port.ok) return fail(port.error);
  if (port.value !== undefined) patch.port = port.value;
  const miningOnStart = present(raw, "miningOnStart", (v) => parseBool(v, "miningOnStart"));
  if (!miningOnStart.ok) return fail(miningOnStart.error);
  if (miningOnStart.value !== undefined) patch.miningOnStart = miningOnStart.value;
  const threads = present(raw, "miningThreads", (v) => parseIntIn(v, "miningThreads", 1, 256));
  if (!threads.ok) return fail(threads.error);
  if (threads.value !== undefined) patch.miningThreads = threads.value;
  const backupDir = present(raw, "backupDir", (v) => parseDirOrNull(v, "backupDir"));
  if (!backupDir.ok) return fail(backupDir.error);
  if (backupDir.value !== undefined) patch.backupDir = backupDir.value;
  for (const key of ["miningApi", "backupApi"] as const) {
    const on = present(raw, key, (v) => parseBool(v, key));
    if (!on.ok) return fail(on.error);
    if (on.value !== undefined) patch[key] = on.value;
  }
  return ok(patch);
}

/** Parses `raw[key]` when the key is present; `undefined` when it is absent. */
function present<T>(
  raw: Record<string, unknown>,
  key: string,
  parse: (v: unknown) => Parsed<T>,
): Parsed<T | undefined> {
  return key in raw ? parse(raw[key]) : ok(undefined);
}

/** Parses a whole settings file (version 1): every field present and valid. */
export function parseSettings(raw: unknown): Parsed<AppSettings> {
  if (!isRecord(raw)) return fail("settings must be an object");
  if (raw.version !== 1) return fail("unsupported settings version");
  const { version: _version, ...rest } = raw;
  const missing = requiredSettingsKeys.filter((k) => !(k in rest));
  if (missing.length > 0) return fail(`missing field(s): ${missing.join(", ")}`);
  const patch = parseSettingsPatch(rest);
  if (!patch.ok) return fail(patch.error);
  return ok(applySettingsPatch(defaultSettings, patch.value));
}

/** The settings with `patch` applied. */
export function applySettingsPatch(settings: AppSettings, patch: SettingsPatch): AppSettings {
  return { ...settings, ...patch, version: 1 };
}

/** One argument parser per channel; the preload and the main process both run them. */
export const argParsers: { readonly [C in Channel]: (raw: unknown) => Parsed<ArgsOf<C>> } = {
  "app/info": parseNoArgs,
  "dialog/choose-folder": parseChooseFolderArgs,
  "shell/open-folder": parseOpenFolderArgs,
  "settings/read": parseNoArgs,
  "settings/write": parseSettingsPatch,
};

/** Every channel, in declaration order. */
export const channels: readonly Channel[] = [
  "app/info",
  "dialog/choose-folder",
  "shell/open-folder",
  "settings/read",
  "settings/write",
];

export function isChannel(x: unknown): x is Channel {
  return channels.some((c) => c === x);
}

/** Parses the envelope main sends back: `{ok:true, value}` or `{ok:false, error:{code,message}}`. */
export function parseInvokeEnvelope(raw: unknown): Parsed<InvokeResult<unknown>> {
  if (!isRecord(raw) || typeof raw.ok !== "boolean") return fail("not an invoke result");
  if (raw.ok) return ok({ ok: true, value: raw.value });
  const e = raw.error;
  if (!isRecord(e) || typeof e.code !== "string" || typeof e.message !== "string") {
    return fail("not an invoke error");
  }
  return ok({ ok: false, error: { code: e.code, message: e.message } });
}

/**
 * The API the preload exposes to the renderer as `window.weftDesktop`. Present only inside
 * the desktop app; the same UI served to a browser has no bridge.
 */
export type DesktopApi = {
  appInfo(): Promise<InvokeResult<AppInfo>>;
  chooseFolder(args?: ChooseFolderArgs): Promise<InvokeResult<string | null>>;
  openFolder(path: string): Promise<InvokeResult<null>>;
  readSettings(): Promise<InvokeResult<AppSettings>>;
  writeSettings(patch: SettingsPatch): Promise<InvokeResult<AppSettings>>;
};

/** The global name the preload exposes the bridge under. */
export const desktopApiGlobal = "weftDesktop";
