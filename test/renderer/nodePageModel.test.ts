/**
 * The Node page's plain logic (renderer/src/features/node/model.ts): the reward account form,
 * the threads choices, times in words, blocks per chain, the miner's state, refusals.
 */
import { describe, expect, it } from "vitest";
import { ClientErrorCode } from "../../renderer/src/api/clientError.ts";
import {
  blocksPerChain,
  folderOf,
  minerReason,
  minerStateText,
  miningRefusal,
  rewardAccountInput,
  threadChoices,
  timeLeft,
  timeSince,
} from "../../renderer/src/features/node/model.ts";

const KEY = "368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca";

describe("[renderer] node page: reward account form", () => {
  it("takes a k: account without keys, and other accounts with their keys", () => {
    expect(rewardAccountInput(` k:${KEY} `, "")).toEqual({
      ok: true,
      account: `k:${KEY}`,
      publicKeys: [],
    });
    expect(rewardAccountInput("bob", `${KEY.toUpperCase()}, ${KEY}\n`)).toEqual({
      ok: true,
      account: "bob",
      publicKeys: [KEY, KEY],
    });
  });
  it("names what is missing or wrong", () => {
    expect(rewardAccountInput("  ", "")).toMatchObject({ ok: false, field: "account" });
    expect(rewardAccountInput("bob", "")).toMatchObject({ ok: false, field: "keys" });
    const bad = rewardAccountInput("bob", "abc");
    expect(bad).toMatchObject({ ok: false, field: "keys" });
    expect(bad.ok ? "" : bad.error).toMatch(/abc/);
  });
  it("says a refused account plainly, and keeps the node's reason", () => {
    const r = miningRefusal({
      code: ClientErrorCode.HttpStatus,
      url: "/app/api/mining",
      status: 400,
      nodeCode: "MINING_BAD_MINER_INFO",
      message: "publicKeys: a k: account takes only its own key",
    });
    expect(r).toMatchObject({
      kind: "bad-account",
      error: { text: expect.stringMatching(/not accepted: a k: account takes only its own key/) },
    });
  });
});

describe("[renderer] node page: figures in words", () => {
  it("offers 1 … processors threads (or the current count if larger)", () => {
    expect(threadChoices(4, 1)).toEqual([1, 2, 3, 4]);
    expect(threadChoices(undefined, 3)).toEqual([1, 2, 3]);
    expect(threadChoices(2, 6)).toHaveLength(6);
  });
  it("says times since and times left", () => {
    expect(timeSince(null, 10)).toBe("never");
    expect(timeSince(1000, 6000)).toBe("5 s ago");
    expect(timeSince(0, 3 * 60_000)).toBe("3 min ago");
    expect(timeSince(0, 125 * 60_000)).toBe("2 h 5 min ago");
    expect(timeLeft(null)).toBe("time left unknown");
    expect(timeLeft(40)).toBe("about 40 s left");
    expect(timeLeft(180)).toBe("about 3 min left");
  });
  it("counts blocks per chain, every chain listed", () => {
    expect(blocksPerChain([{ chainId: 2 }, { chainId: 2 }, { chainId: 0 }], 3)).toEqual([
      { chain: "0", blocks: 1 },
      { chain: "1", blocks: 0 },
      { chain: "2", blocks: 2 },
    ]);
  });
  it("names the miner's state and a log file's folder", () => {
    expect(minerStateText({ enabled: true, onDemand: true, active: true })).toBe("On");
    expect(minerStateText({ enabled: false, onDemand: true, active: false })).toMatch(/idle/);
    expect(minerStateText({ enabled: false, onDemand: false, active: false })).toBe("Off");
    expect(folderOf("/home/u/.config/Weft/logs/weft.log")).toBe("/home/u/.config/Weft/logs");
    expect(folderOf("C:\\Users\\u\\weft.log")).toBe("C:\\Users\\u");
  });
});

describe("[renderer] node page: why the miner is or is not mining (issue 36)", () => {
  const base = {
    enabled: false,
    threads: 1,
    account: null,
    hashRate: 0,
    blocksFound: 0,
    onDemand: false,
    onDemandAvailable: true,
    active: false,
    lastBlockAt: null,
    held: false,
    payee: "sender09",
    demand: [],
  } as const;

  it("always says why, beside a state that matches it", () => {
    const idle = { ...base, onDemand: true };
    expect(minerStateText(idle)).toBe("On demand: idle");
    expect(minerReason(idle).text).toMatch(/^Not mining: nothing waits for a block\./);
    expect(minerReason(idle).text).toContain("test account sender09, as no reward account is set");
    const busy = {
      ...idle,
      active: true,
      demand: [
        { chainId: 3, height: 6 },
        { chainId: 7, height: 1200 },
      ],
    };
    expect(minerStateText(busy)).toBe("On demand: confirming transactions");
    expect(minerReason(busy).text).toContain(
      "(chain 3 up to height 6, chain 7 up to height 1,200)",
    );
    const on = { ...base, enabled: true, active: true, account: "k:ab", payee: "k:ab" };
    expect(minerStateText(on)).toBe("On");
    expect(minerReason(on).text).toBe(
      "Mining every chain, all the time. The blocks pay your reward account.",
    );
    const held = { ...on, active: false, held: true };
    expect(minerStateText(held)).toBe("On, paused");
    expect(minerReason(held).text).toContain("catches up with its peers");
  });

  it("off: names what would make it mine", () => {
    expect(minerReason(base)).toMatchObject({ fix: "on-demand" });
    expect(minerReason({ ...base, payee: null, onDemandAvailable: false })).toEqual({
      text: "Not mining: mining needs a reward account. Choose one under “Reward account”, then turn Mining on.",
      fix: "account",
    });
    expect(
      minerReason({ ...base, onDemandAvailable: false, account: "k:ab", payee: "k:ab" }).fix,
    ).toBeNull();
  });
});
