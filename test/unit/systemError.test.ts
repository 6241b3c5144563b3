/** isSystemError tells a failed system call (ENOENT, EACCES, …) from a bug, so catches can narrow. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isSystemError } from "../../src-node/errors/systemError.ts";

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe("[errors] isSystemError", () => {
  it("is true for a failed system call, with one of the codes when given", () => {
    const missing = thrown(() => readFileSync(join(import.meta.dirname, "no-such-file")));
    expect(isSystemError(missing)).toBe(true);
    expect(isSystemError(missing, "ENOENT")).toBe(true);
    expect(isSystemError(missing, "EACCES", "EPERM")).toBe(false);
  });

  it("is false for bugs: Node's argument errors, plain errors and non-errors", () => {
    const badArgument = thrown(() => readFileSync({} as unknown as string));
    expect((badArgument as { code?: string }).code).toMatch(/^ERR_/);
    expect(isSystemError(badArgument)).toBe(false);
    expect(isSystemError(new TypeError("x"))).toBe(false);
    expect(isSystemError({ code: "ENOENT" })).toBe(false);
    expect(isSystemError(undefined)).toBe(false);
  });
});
