/**
 * The features' plain logic (renderer/src/features/<feature>/model.ts) and account names:
 * what the Node page says about streams, health and refused mining changes (decided by the
 * node's error code), the explorer's parameters and lookups, account kinds, the default
 * backup folder.
 */
import { describe, expect, it } from "vitest";
import { type ClientError, ClientErrorCode } from "../../renderer/src/api/clientError.ts";
import { defaultBackupFolder } from "../../renderer/src/features/backup/model.ts";
import {
  blockHashProblem,
  lookupHref,
  moduleNameProblem,
  parseChainParam,
  requestKeyProblem,
} from "../../renderer/src/features/explorer/model.ts";
import {
  healthView,
  isForbiddenHere,
  miningRefusal,
  streamText,
} from "../../renderer/src/features/node/model.ts";
import { accountKind, describeAccountKind } from "../../renderer/src/features/wallet/model.ts";
import { accountNameProblem, shortAccountName } from "../../renderer/src/format/accountName.ts";

const URL = "http://127.0.0.1:1848/app/api/mining";
const HASH = "CNHrpXbArOLo_cgVHt2uxR9MfNtp_1XFmeQEwM9T-_k";

function status(s: number, nodeCode: string | null, message: string | null): ClientError {
  return { code: ClientErrorCode.HttpStatus, url: URL, status: s, nodeCode, message };
}

describe("[renderer] node page model", () => {
  it("says each stream state", () => {
    expect(Object.keys(streamText)).toEqual(["connecting", "open", "reconnecting", "closed"]);
    expect(streamText.open).toContain("Live");
  });

  it("turns a refused mining change into words from the node's code, not its status", () => {
    const message =
      "mining cannot start: no reward account is set (choose one on the app's Node page, give --miner-account, or set mining.account in the configuration)";
    const noAccount = miningRefusal(status(409, "MINING_CANNOT_START", message), { payee: null });
    expect(noAccount.kind).toBe("no-account");
    expect(noAccount.title).toBe("Mining needs a reward account.");
    // What to do in the app, not on the command line; the node's words only in the details.
    expect(noAccount.error.text).toContain("Reward account");
    expect(noAccount.error.text).not.toMatch(/--|409|MINING_|http/);
    expect(noAccount.error.details).toContain(message);
    expect(noAccount.error.details).toContain("HTTP 409 MINING_CANNOT_START");
    expect(noAccount.error.details).toContain(URL);
    const thread = miningRefusal(status(409, "MINING_CANNOT_START", null), { payee: "sender09" });
    expect(thread.kind).toBe("cannot-start");
    expect(thread.error.text).toContain("could not start its miner");
    expect(miningRefusal(status(403, "MINING_FORBIDDEN", "not local")).kind).toBe("forbidden");
    expect(miningRefusal(status(403, "APP_FORBIDDEN_ORIGIN", "foreign origin")).kind).toBe(
      "forbidden",
    );
    // A 403 without the node's code is not guessed to be "not this computer".
    const bare = miningRefusal(status(403, null, "Forbidden"));
    expect(bare.kind).toBe("failed");
    expect(bare.error).toEqual({
      text: "The node refused this. Forbidden.",
      details: `HTTP 403\nThe node said: Forbidden\n${URL}`,
    });
    // Nor is the same code under another status for an APP_ code.
    expect(isForbiddenHere(status(400, "APP_BAD_BODY", "x"))).toBe(false);
    expect(
      miningRefusal({ code: ClientErrorCode.Timeout, url: URL, ms: 10_000 }).error.text,
    ).toContain("did not answer within 10 s");
  });

  it("reads the health line from the last reply or failure", () => {
    expect(healthView(undefined, null)).toEqual({ kind: "checking" });
    expect(healthView("Health check OK.\n", null)).toEqual({
      kind: "healthy",
      text: "Health check OK.",
    });
    expect(healthView("  ", null)).toEqual({ kind: "healthy", text: "the node answers" });
    expect(healthView("old", status(503, null, "drain")).kind).toBe("down");
  });
});

describe("[renderer] explorer model", () => {
  it("reads chain parameters, bounded by the network's chains once known", () => {
    expect(parseChainParam("0", 20)).toEqual({ ok: true, value: 0 });
    expect(parseChainParam("19", 20)).toEqual({ ok: true, value: 19 });
    expect(parseChainParam("19", null)).toEqual({ ok: true, value: 19 });
    expect(parseChainParam("20", 20)).toEqual({
      ok: false,
      error: "This network has chains 0 to 19; there is no chain 20.",
    });
    for (const bad of ["", "01", "-1", "1.0", "x", "1000"]) {
      expect(parseChainParam(bad, null).ok, bad).toBe(false);
    }
  });

  it("checks hashes, request keys and module names", () => {
    expect(blockHashProblem(HASH)).toBeNull();
    expect(blockHashProblem(HASH.slice(1))).toContain("43 characters");
    expect(blockHashProblem(`${HASH.slice(1)}=`)).not.toBeNull();
    expect(requestKeyProblem(HASH)).toBeNull();
    expect(requestKeyProblem("abc")).not.toBeNull();
    expect(moduleNameProblem("coin")).toBeNull();
    expect(moduleNameProblem("free.my-module")).toBeNull();
    expect(moduleNameProblem("")).toBe("Enter a module name.");
    expect(moduleNameProblem("a.b.c")).not.toBeNull();
    expect(moduleNameProblem("1abc")).not.toBeNull();
    expect(moduleNameProblem("a b")).not.toBeNull();
  });

  it("turns a lookup into an address or the reason it cannot", () => {
    expect(lookupHref("account", "  alice ")).toEqual({
      ok: true,
      value: "#/explorer/account/alice",
    });
    expect(lookupHref("tx", HASH)).toEqual({ ok: true, value: `#/explorer/tx/${HASH}` });
    expect(lookupHref("module", "coin")).toEqual({ ok: true, value: "#/explorer/module/coin" });
    expect(lookupHref("account", "ab")).toEqual({
      ok: false,
      error: "An account name has at least 3 characters.",
    });
    expect(lookupHref("tx", "nope").ok).toBe(false);
  });
});

describe("[renderer] account names and kinds", () => {
  it("accepts the coin contract's names and says what is wrong with others", () => {
    expect(accountNameProblem("alice")).toBeNull();
    expect(accountNameProblem(`k:${"ab".repeat(32)}`)).toBeNull();
    expect(accountNameProblem("ümlaut")).toBeNull();
    expect(accountNameProblem("")).toBe("Enter an account name.");
    expect(accountNameProblem("ab")).toBe("An account name has at least 3 characters.");
    expect(accountNameProblem("a".repeat(257))).toBe("An account name has at most 256 characters.");
    expect(accountNameProblem("a\nb")).toContain("cannot contain");
    expect(accountNameProblem("abc€")).toContain("cannot contain “€”");
  });

  it("shortens long names in the middle", () => {
    const k = `k:${"0123456789abcdef".repeat(4)}`;
    expect(shortAccountName(k)).toBe("k:012345…abcdef");
    expect(shortAccountName("alice")).toBe("alice");
  });

  it("tells the kind of an account from its name", () => {
    const key = "cd".repeat(32);
    expect(accountKind(`k:${key}`)).toEqual({ kind: "single-key", publicKey: key });
    expect(accountKind(`k:${key.toUpperCase()}`)).toEqual({ kind: "vanity" });
    expect(accountKind("w:abc:keys-all")).toMatchObject({ kind: "principal", prefix: "w:" });
    expect(accountKind("r:user.ks")).toMatchObject({ kind: "principal", prefix: "r:" });
    expect(accountKind("alice")).toEqual({ kind: "vanity" });
    expect(accountKind("w:")).toEqual({ kind: "vanity" });
    expect(describeAccountKind(accountKind(`k:${key}`))).toContain("single-key");
    expect(describeAccountKind(accountKind("m:free.mod:g"))).toContain("module-guard");
  });
});

describe("[renderer] backup model", () => {
  it("puts backups in a folder named backups beside the data folder", () => {
    expect(defaultBackupFolder("/home/ann/.local/share/weft")).toBe(
      "/home/ann/.local/share/backups",
    );
    expect(defaultBackupFolder("/home/ann/weft/")).toBe("/home/ann/backups");
    expect(defaultBackupFolder("/weft")).toBe("/backups");
    expect(defaultBackupFolder("C:\\Users\\ann\\AppData\\Roaming\\Weft")).toBe(
      "C:\\Users\\ann\\AppData\\Roaming\\backups",
    );
    expect(defaultBackupFolder("C:\\Weft\\")).toBe("C:\\backups");
    expect(defaultBackupFolder("weft")).toBe("./backups");
  });
});
