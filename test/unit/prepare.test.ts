/**
 * npm's `prepare` (build/prepare.ts): the node is compiled and must be; the UI and the preload
 * are built too, so the first `npm start` builds nothing (issue 36), except under CI or with
 * WEFT_SKIP_UI_BUILD=1; a failed UI build leaves the install successful, a failed compile does
 * not. package.json's `prepare` runs it.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type StepName, viteBuildEnv } from "../../build/buildSteps.ts";
import { prepare, preparePlan } from "../../build/prepare.ts";

const ok = async (step: StepName) => ({ step, skipped: false, note: "built" });

describe("[build] npm's prepare", () => {
  it("builds the node, then the UI and the preload, unless CI or asked not to", () => {
    expect(preparePlan({})).toEqual({
      required: ["node"],
      optional: ["renderer", "preload"],
      skipReason: null,
    });
    for (const env of [{ CI: "1" }, { CI: "true" }, { WEFT_SKIP_UI_BUILD: "1" }]) {
      const plan = preparePlan(env);
      expect(plan.required).toEqual(["node"]);
      expect(plan.optional).toEqual([]);
      expect(plan.skipReason).not.toBeNull();
    }
    expect(preparePlan({ CI: "false" }).optional).toEqual(["renderer", "preload"]);
  });

  it("fails the install only when the node does not compile", async () => {
    const said: string[] = [];
    const ran: StepName[] = [];
    const failing = (bad: StepName) => async (step: StepName) => {
      ran.push(step);
      if (step === bad) throw new Error(`${step} broke`);
      return ok(step);
    };
    const plan = preparePlan({});
    expect(await prepare(plan, failing("renderer"), (l) => said.push(l))).toBe(0);
    expect(ran).toEqual(["node", "renderer"]);
    expect(said.join("\n")).toMatch(/renderer: not built \(renderer broke\); npm start builds it/);
    ran.length = 0;
    expect(await prepare(plan, failing("node"), (l) => said.push(l))).toBe(1);
    expect(ran).toEqual(["node"]);
    ran.length = 0;
    expect(await prepare(plan, ok, () => {})).toBe(0);
    expect(
      await prepare(
        preparePlan({ CI: "1" }),
        async (s) => {
          ran.push(s);
          return ok(s);
        },
        () => {},
      ),
    ).toBe(0);
    expect(ran).toEqual(["node"]);
  });

  it("is what npm install and npm ci run", () => {
    const pkg = JSON.parse(
      readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
    ) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.prepare).toBe("tsx build/prepare.ts");
  });
});

describe("[build] the UI's Vite build", () => {
  it("is always a production build, also when started under Vitest (NODE_ENV=test)", () => {
    const env = viteBuildEnv({ NODE_ENV: "test", PATH: "/usr/bin" });
    expect(env.NODE_ENV).toBe("production");
    expect(env.PATH).toBe("/usr/bin");
    expect(viteBuildEnv({}).NODE_ENV).toBe("production");
  });
});
