/**
 * Errors in words (renderer/src/api/errorWords.ts, ui/ErrorMessage.tsx; issue 36): every
 * failure the UI shows is a sentence saying what happened and what to do, without the HTTP
 * status, the node's error code or a URL, which stay in the "Details"; and every error box
 * of the renderer is the shared component (no page draws its own).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { type ClientError, ClientErrorCode } from "../../renderer/src/api/clientError.ts";
import {
  clientErrorWords,
  desktopErrorWords,
  errorWordsOf,
  thrownErrorWords,
  WordedError,
  withLead,
} from "../../renderer/src/api/errorWords.ts";
import { backupFailureWords } from "../../renderer/src/features/backup/model.ts";

const URL = "http://127.0.0.1:1848/app/api/peers";

function http(status: number, nodeCode: string | null, message: string | null): ClientError {
  return { code: ClientErrorCode.HttpStatus, url: URL, status, nodeCode, message };
}

/** Nothing a user should have to decode: statuses, codes, URLs, command-line flags. */
function expectPlain(text: string): void {
  expect(text).not.toMatch(/(?<![-\w])[1-5]\d\d(?![-\w])/);
  expect(text).not.toMatch(/\b[A-Z]{2,}_[A-Z_]+\b/);
  expect(text).not.toMatch(/https?:\/\//);
  expect(text).not.toMatch(/\s--[a-z]/);
  expect(text).toMatch(/[.!?]$/);
}

describe("[renderer] errors in words", () => {
  it("says a bad peer address and a bad backup folder as what to do, the rest in the details", () => {
    const peer = clientErrorWords(
      http(
        400,
        "P2P_BAD_PEER_ADDRESS",
        'address: expected HOST:PORT or FINGERPRINT@HOST:PORT (a host name or IP address, a port from 1 to 65535), got "not a peer"',
      ),
    );
    expect(peer.text).toBe(
      "That is not a peer address. Type the other node's address as HOST:PORT, for example 192.168.1.20:1789.",
    );
    expect(peer.details).toBe(
      `HTTP 400 P2P_BAD_PEER_ADDRESS\nThe node said: address: expected HOST:PORT or FINGERPRINT@HOST:PORT (a host name or IP address, a port from 1 to 65535), got "not a peer"\n${URL}`,
    );
    const folder = clientErrorWords(
      http(422, "BACKUP_FOLDER_UNUSABLE", "/nonexistent/x: no such folder"),
    );
    expect(folder.text).toBe(
      "This folder cannot hold backups: no such folder. Give the full path of an existing folder you may write to, for example /home/you/weft-backups.",
    );
    expect(folder.details).toContain("HTTP 422 BACKUP_FOLDER_UNUSABLE");
  });

  it("words every kind of failed call plainly", () => {
    const cases: ClientError[] = [
      { code: ClientErrorCode.Unreachable, url: URL, detail: "fetch failed" },
      { code: ClientErrorCode.Timeout, url: URL, ms: 10_000 },
      { code: ClientErrorCode.BadResponse, url: URL, reason: "hashes: expected an object" },
      http(400, null, null),
      http(400, "APP_BAD_REQUEST", "directory: unknown field"),
      http(403, "APP_FORBIDDEN", "not from this computer"),
      http(403, "APP_TOKEN_REQUIRED", "token"),
      http(404, null, null),
      http(409, "BACKUP_RUNNING", "a backup runs"),
      http(409, "APP_RESTART_UNAVAILABLE", "weft node runs without a supervisor"),
      http(
        422,
        "BACKUP_NOT_RESTORABLE",
        "/b/blocks.sqlite: size or SHA-256 differs from the manifest (BACKUP_CHECKSUM_MISMATCH)",
      ),
      http(500, "APP_INTERNAL", "internal error"),
      http(503, null, "busy"),
      http(502, "P2P_PEER_UNREACHABLE", "connect ECONNREFUSED 10.0.0.1:1789"),
      http(
        404,
        "P2P_UNKNOWN_PEER",
        "Unknown peer x: this node has no room for more peers (p2p.max-peers 8)",
      ),
    ];
    for (const e of cases) {
      const w = clientErrorWords(e);
      expectPlain(w.text);
      expect(w.details).toContain(URL);
    }
    expect(clientErrorWords(cases[1] as ClientError).text).toBe(
      "The node did not answer within 10 s. It may be busy; try again in a moment.",
    );
    expect(clientErrorWords(cases[14] as ClientError).text).toBe(
      "This node has as many peers as it takes. Remove one first.",
    );
  });

  it("words desktop, thrown and backup failures the same way", () => {
    const open = desktopErrorWords({ code: "DESKTOP_OPEN_FAILED", message: "xdg-open failed" });
    expectPlain(open.text);
    expect(open.details).toBe("DESKTOP_OPEN_FAILED\nxdg-open failed");
    const vault = Object.assign(new Error("the wallet is locked: unlock it first"), {
      code: "WALLET_LOCKED",
    });
    expect(thrownErrorWords(vault, "Signing failed.")).toEqual({
      text: "Signing failed. The wallet is locked: unlock it first.",
      details: "WALLET_LOCKED",
    });
    const worded = new WordedError(
      withLead("The wallet could not be saved.", clientErrorWords(http(503, null, null))),
    );
    expect(thrownErrorWords(worded, "ignored")).toBe(worded.words);
    expect(errorWordsOf("A request key is 43 characters.")).toEqual({
      text: "A request key is 43 characters.",
      details: null,
    });
    const failed = backupFailureWords({ code: "BACKUP_WRITE_FAILED", message: "ENOSPC" });
    expectPlain(failed.text);
    expect(failed.details).toBe("BACKUP_WRITE_FAILED\nENOSPC");
  });
});

const rendererRoot = resolve(import.meta.dirname, "..", "..", "renderer", "src");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("[renderer] one error component", () => {
  it("no page draws its own error box: every one is ui/ErrorMessage.tsx", () => {
    const own = sources(rendererRoot)
      .filter(
        (f) => !f.endsWith(join("ui", "ErrorMessage.tsx")) && !f.endsWith(join("ui", "Notice.tsx")),
      )
      .filter((f) => /<Notice\s+tone="error"/.test(readFileSync(f, "utf8")))
      .map((f) => relative(rendererRoot, f));
    expect(own).toEqual([]);
  });
});
