/**
 * Every native rejects too many and too few arguments with an ArgsError that
 * names it, at the position of the call (an error case for each table entry).
 */
import { describe, expect, it } from "vitest";
import { createRuntimeContext } from "../../src-node/contract/eval/createRuntimeContext.ts";
import { evaluateSource } from "../../src-node/contract/evaluate.ts";
import { coreNatives } from "../../src-node/contract/natives/nativeTable.ts";

function call(name: string, n: number) {
  const args = Array.from({ length: n }, () => "1").join(" ");
  return evaluateSource(`\n (${name}${n > 0 ? ` ${args}` : ""})`, {
    file: "arity",
    ctx: createRuntimeContext(),
  });
}

describe("[contract] native arity errors", () => {
  for (const def of coreNatives.values()) {
    const { min, max } = def.arity;
    if (Number.isFinite(max)) {
      it(`${def.name} rejects ${max + 1} arguments`, () => {
        const r = call(def.name, max + 1);
        expect(r.ok).toBe(false);
        if (!r.ok) {
          expect(r.error.kind).toBe("ArgsError");
          expect(r.error.message).toContain(`Invalid arguments in call to ${def.name}`);
          expect(r.error.span).toMatchObject({ file: "arity", line: 2, column: 1 });
        }
      });
    }
    if (min > 0) {
      it(`${def.name} rejects ${min - 1} arguments`, () => {
        const r = call(def.name, min - 1);
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.error.kind).toBe("ArgsError");
      });
    }
  }
});
