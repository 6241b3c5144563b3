/**
 * Errors as the user reads them: `text` says what happened and what to do, in sentences
 * without HTTP statuses, error codes or URLs; `details` keeps those for the "Details"
 * disclosure (ui/ErrorMessage.tsx), for a bug report or a look at the node's log. Every
 * failure the UI shows goes through here: a failed call to the node (`clientErrorWords`,
 * worded by the node's error code where the app knows it, by the HTTP status otherwise), or
 * a sentence the app wrote itself (`plainError`).
 * @module
 */
import { type ClientError, ClientErrorCode } from "./clientError.ts";

export type ErrorWords = {
  /** What happened and what to do, for the user. */
  readonly text: string;
  /** The technical detail (status, the node's code and own message, URL); null when there is none. */
  readonly details: string | null;
};

/** What a component takes as an error: words, or a sentence the app wrote (no details). */
export type ShownError = ErrorWords | string;

/** An error thrown with its words already written (say, a failed save inside an action). */
export class WordedError extends Error {
  readonly words: ErrorWords;
  constructor(words: ErrorWords) {
    super(words.text);
    this.name = "WordedError";
    this.words = words;
  }
}

/** A sentence the app wrote itself, with optional technical detail. */
export function plainError(text: string, details: string | null = null): ErrorWords {
  return { text, details };
}

/** `words` after a sentence saying what failed ("The pending transfers were not saved."). */
export function withLead(lead: string, words: ErrorWords): ErrorWords {
  return { text: `${lead} ${words.text}`, details: words.details };
}

/** The words of anything a component was given as an error. */
export function errorWordsOf(e: ShownError): ErrorWords {
  return typeof e === "string" ? { text: e, details: null } : e;
}

/** "no such folder" → "No such folder" (the node's messages start in lower case). */
function capitalized(s: string): string {
  return s === "" ? s : `${s.charAt(0).toUpperCase()}${s.slice(1)}`;
}

/** A sentence ends with a full stop (or the node's own ? or !). */
function sentence(s: string): string {
  const t = capitalized(s.trim());
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}

/**
 * The reason in a node message, without the subject it starts with and the code it may end
 * with ("/x: no such folder" → "no such folder"; "publicKeys: a k: account takes only its
 * own key" → "a k: account takes only its own key"; "… (BACKUP_NOT_DONE)" → "…").
 */
function reasonOf(message: string | null): string {
  if (message === null) return "";
  return message
    .trim()
    .replace(/\s*\([A-Z][A-Z0-9_]+\)$/, "")
    .replace(/^[^\s:]+: /, "");
}

type HttpError = Extract<ClientError, { code: typeof ClientErrorCode.HttpStatus }>;

/**
 * Sentences for the node's codes the app's pages meet. Each says what happened and what to
 * do; the node's own message stays in the details (and, where it is the reason, in the text).
 */
const BY_NODE_CODE: Readonly<Record<string, (e: HttpError) => string>> = {
  APP_FORBIDDEN: () =>
    "The node takes this only from its own app on the computer it runs on. Open the app from the address Weft printed when it started.",
  APP_TOKEN_REQUIRED: () =>
    "The node did not recognise this browser (it may have been started again since). Open the app from the address the node printed when it started, or a new one from weft app-url.",
  APP_BAD_REQUEST: () =>
    "The node did not understand the app's request. Reload the page; if it happens again, the app and the node may be of different versions.",
  APP_NOT_JSON: () =>
    "The node did not understand the app's request. Reload the page; if it happens again, the app and the node may be of different versions.",
  APP_INTERNAL: () =>
    "The node failed while doing this. Try again; if it fails again, the node's log (Node page) says why.",
  APP_RESTART_UNAVAILABLE: () =>
    "This node cannot restart itself: it was started without the app's supervisor. Stop it and start it again yourself.",
  APP_DAPP_PORT_UNAVAILABLE: () =>
    "Another program already uses that port (Chainweaver, or another wallet). Choose another port, or close that program, and try again.",
  APP_SIGN_REQUEST_GONE: () =>
    "The application no longer waits for this answer (it was answered, timed out or closed). Nothing was sent.",
  APP_SIGN_REQUEST_WITHDRAWN: () =>
    "The dapp withdrew this request (it closed the page or stopped waiting). Nothing was sent.",
  P2P_BAD_PEER_ADDRESS: () =>
    "That is not a peer address. Type the other node's address as HOST:PORT, for example 192.168.1.20:1789.",
  P2P_UNKNOWN_PEER: (e) =>
    /no room|max/i.test(e.message ?? "")
      ? "This node has as many peers as it takes. Remove one first."
      : "This node has no such peer (it may have been removed already).",
  P2P_PEER_UNREACHABLE: () =>
    "The other node did not answer. Check its address and that it is running, then try again.",
  P2P_PEER_BANNED: () =>
    "The other node refuses this node for a while (it saw something it did not accept). Try again later.",
  BACKUP_FOLDER_UNUSABLE: (e) =>
    `This folder cannot hold backups: ${reasonOf(e.message) || "it is not usable"}. Give the full path of an existing folder you may write to, for example /home/you/weft-backups.`,
  BACKUP_NOT_RESTORABLE: (e) =>
    `This backup cannot be restored: ${reasonOf(e.message) || "it did not pass the check"}. Choose another backup.`,
  BACKUP_RUNNING: () => "A backup is running. Wait until it has finished, then try again.",
  BACKUP_DATA_IN_USE: () =>
    "Another node or restore uses the data folder. Stop it first, then try again.",
  BACKUP_UNKNOWN_ID: () => "This backup is no longer known to the node. Reload the list.",
  BACKUP_STOPPED: () => "The node is shutting down. Start it again, then try again.",
  MEMPOOL_FULL: () =>
    "This chain has as many waiting transactions as it takes. Try again after its next blocks.",
  MINING_BAD_MINER_INFO: (e) =>
    `The reward account was not accepted: ${reasonOf(e.message) || "its name or keys are not valid"}. Check the account and its keys.`,
  EXPLORER_NOT_FOUND: () =>
    "The node does not know this (no block, transaction or account by that name).",
  EXPLORER_CLOSED: () => "The node is shutting down. Start it again, then try again.",
};

/** Words for an HTTP status the app has no sentence for by code. */
function byStatus(e: HttpError): string {
  const said = e.message === null || e.message.trim() === "" ? null : sentence(e.message);
  if (e.status === 404) return said ?? "The node does not know this.";
  if (e.status === 408 || e.status === 429) return "The node is busy. Try again in a moment.";
  if (e.status === 503) {
    return said === null
      ? "The node is not ready. Try again in a moment."
      : `The node is not ready: ${said} Try again in a moment.`;
  }
  if (e.status >= 500)
    return "The node failed while doing this. Try again; if it fails again, the node's log (Node page) says why.";
  if (e.status === 409) return `This cannot be done now. ${said ?? ""}`.trim();
  if (e.status === 403) return `The node refused this. ${said ?? ""}`.trim();
  return `The node did not accept this. ${said ?? "Check what you entered and try again."}`.trim();
}

/** The details of a failed call: what a bug report or the node's log needs. */
export function clientErrorDetails(e: ClientError): string {
  switch (e.code) {
    case ClientErrorCode.Unreachable:
      return `No connection: ${e.detail}\n${e.url}`;
    case ClientErrorCode.Timeout:
      return `No answer within ${e.ms} ms\n${e.url}`;
    case ClientErrorCode.HttpStatus:
      return [
        `HTTP ${e.status}${e.nodeCode === null ? "" : ` ${e.nodeCode}`}`,
        ...(e.message === null ? [] : [`The node said: ${e.message}`]),
        e.url,
      ].join("\n");
    case ClientErrorCode.BadResponse:
      return `Unreadable answer: ${e.reason}${e.url === "" ? "" : `\n${e.url}`}`;
    default: {
      const never: never = e;
      return String(never);
    }
  }
}

/** A failed call to the node, for the user (and its technical detail). */
export function clientErrorWords(e: ClientError): ErrorWords {
  const details = clientErrorDetails(e);
  switch (e.code) {
    case ClientErrorCode.Unreachable:
      return {
        text: "The node does not answer. Check that Weft is still running (its window, or the terminal that started it), then try again.",
        details,
      };
    case ClientErrorCode.Timeout:
      return {
        text: `The node did not answer within ${Math.max(1, Math.round(e.ms / 1000))} s. It may be busy; try again in a moment.`,
        details,
      };
    case ClientErrorCode.HttpStatus: {
      const worded = e.nodeCode === null ? undefined : BY_NODE_CODE[e.nodeCode];
      return { text: worded === undefined ? byStatus(e) : worded(e), details };
    }
    case ClientErrorCode.BadResponse:
      return {
        text: "The node sent an answer this app does not understand. Try again; if it happens again, the app and the node may be of different versions.",
        details,
      };
    default: {
      const never: never = e;
      return { text: String(never), details: null };
    }
  }
}

/** A failed call in one line, for places that hold only text (a toast, a saved status). */
export function clientErrorText(e: ClientError): string {
  return clientErrorWords(e).text;
}

/** Sentences for the desktop shell's codes (electron/errors.ts) the pages meet. */
const BY_DESKTOP_CODE: Readonly<Record<string, string>> = {
  DESKTOP_NOT_A_DIRECTORY: "That folder does not exist (any more). Choose another one.",
  DESKTOP_OPEN_FAILED:
    "The file manager did not open the folder. Copy its path and open it yourself.",
  DESKTOP_FOLDER_NOT_ALLOWED:
    "The app opens only its own folders (data, log and backup folders). Copy the path and open it yourself.",
  DESKTOP_SETTINGS_INVALID:
    "The app's settings file cannot be read. Save the settings again to write a good one.",
  DESKTOP_SETTINGS_WRITE_FAILED:
    "The app could not save its settings (is the disk full or the folder read-only?). Try again.",
};

/** A failed call to the desktop shell (`{code, message}` over IPC), for the user. */
export function desktopErrorWords(e: {
  readonly code: string;
  readonly message: string;
}): ErrorWords {
  return {
    text:
      BY_DESKTOP_CODE[e.code] ??
      "The desktop app could not do this. Try again; if it fails again, its log says why.",
    details: `${e.code}\n${e.message}`,
  };
}

/**
 * Something thrown by the app's own code (a vault error, a failed call wrapped for the query
 * library, an Error) after `lead` ("Signing failed."): its message as the reason, its code as
 * the details.
 */
export function thrownErrorWords(e: unknown, lead: string): ErrorWords {
  if (e instanceof WordedError) return e.words;
  if (typeof e === "object" && e !== null && "clientError" in e) {
    return withLead(lead, clientErrorWords((e as { clientError: ClientError }).clientError));
  }
  const message = e instanceof Error ? e.message : String(e);
  const code =
    typeof e === "object" && e !== null && "code" in e && typeof e.code === "string"
      ? e.code
      : null;
  return { text: `${lead} ${sentence(message)}`, details: code };
}
