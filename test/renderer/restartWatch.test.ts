/**
 * The restart watch (renderer/src/services/restartWatch.ts): after a 202 it reports
 * "restarting" while the node is away or the old launch still answers, "back" (and tells
 * `onBack` once) when another launch answers, "failed" past the limit; a refused request
 * starts nothing.
 */
import { describe, expect, it } from "vitest";
import { ClientErrorCode, type ClientResult } from "../../renderer/src/api/clientError.ts";
import { RestartWatch } from "../../renderer/src/services/restartWatch.ts";

type Answer = ClientResult<unknown>;

/** A client whose `request` answers from a script, as JSON text (the watch's two calls). */
function fakeClient(answers: { get: Answer[]; post: Answer }) {
  const calls: string[] = [];
  const text = (a: Answer): ClientResult<string> =>
    a.ok ? { ok: true, value: JSON.stringify(a.value) } : a;
  return {
    calls,
    client: {
      url: (path: string) => path,
      request: async (method: string, path: string) => {
        calls.push(`${method} ${path}`);
        if (method === "POST") return text(answers.post);
        const a = answers.get.shift();
        if (a === undefined) throw new Error("no more answers");
        return text(a);
      },
    },
  };
}

function manualTimers() {
  const queue: (() => void)[] = [];
  return {
    timers: {
      setTimeout: (f: () => void) => queue.push(f),
      clearTimeout: () => {},
    },
    async tick() {
      const f = queue.shift();
      if (f === undefined) throw new Error("nothing scheduled");
      f();
      // Let the status request settle.
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
    pending: () => queue.length,
  };
}

const away: Answer = {
  ok: false,
  error: { code: ClientErrorCode.Unreachable, url: "x", detail: "ECONNREFUSED" },
};
const launch = (id: string): Answer => ({ ok: true, value: { launchId: id, restartable: true } });

describe("[renderer] restart watch", () => {
  it("asks for the restart, then waits for another launch of the node", async () => {
    const { client, calls } = fakeClient({
      post: { ok: true, value: { launchId: "old", restarting: true } },
      get: [launch("old"), away, away, launch("new")],
    });
    const t = manualTimers();
    let back = 0;
    const w = new RestartWatch({ client, timers: t.timers, onBack: () => back++ });
    const phases: string[] = [];
    w.subscribe(() => phases.push(w.getSnapshot().kind));
    const r = await w.restart();
    expect(r.ok).toBe(true);
    expect(w.getSnapshot()).toMatchObject({ kind: "restarting", reason: "restart" });
    for (let i = 0; i < 4; i++) await t.tick();
    expect(w.getSnapshot()).toEqual({ kind: "back", reason: "restart" });
    expect(back).toBe(1);
    expect(t.pending()).toBe(0);
    expect(calls).toEqual([
      "POST /app/api/node/restart",
      "GET /app/api/node/restart",
      "GET /app/api/node/restart",
      "GET /app/api/node/restart",
      "GET /app/api/node/restart",
    ]);
    w.dismiss();
    expect(phases).toEqual(["restarting", "back", "idle"]);
  });

  it("reports a node that does not come back within the limit", async () => {
    let now = 0;
    const { client } = fakeClient({ post: away, get: [away, away] });
    const t = manualTimers();
    const w = new RestartWatch({ client, timers: t.timers, now: () => now, limitMs: 1000 });
    w.follow("old", "restore");
    await t.tick();
    expect(w.getSnapshot().kind).toBe("restarting");
    now = 2000;
    await t.tick();
    expect(w.getSnapshot()).toMatchObject({ kind: "failed", reason: "restore" });
    expect(t.pending()).toBe(0);
  });

  it("starts nothing when the node refuses the restart", async () => {
    const refused: Answer = {
      ok: false,
      error: {
        code: ClientErrorCode.HttpStatus,
        url: "x",
        status: 409,
        nodeCode: "APP_RESTART_UNAVAILABLE",
        message: "cannot",
      },
    };
    const { client } = fakeClient({ post: refused, get: [] });
    const t = manualTimers();
    const w = new RestartWatch({ client, timers: t.timers });
    const r = await w.restart();
    expect(r.ok).toBe(false);
    expect(w.getSnapshot().kind).toBe("idle");
    expect(t.pending()).toBe(0);
  });
});
