/**
 * The part of the reference's static checker that `typecheck` runs in Weft:
 * the yield/resume structure of each defpact's steps (Pact 4.13
 * `assocStepYieldReturns`). A step's own code (not its rollback, not the
 * functions it calls) yields when it applies `yield` (cross-chain with a
 * target chain) and resumes when it applies `resume`. A cross-chain yield in
 * a step with a rollback, a resume in the first step, a yield in the last,
 * a yield not resumed by the next step and a resume of no yield are errors.
 * @module
 */
import type { ParseNode } from "../syntax/parseTree.ts";

type StepYieldResume = { yields: boolean; crossChain: boolean; resumes: boolean };

function headName(n: ParseNode): string | null {
  if (n.kind !== "sexp") return null;
  const h = n.items[0];
  return h !== undefined && h.kind === "atom" && h.parts.length === 1
    ? (h.parts[0] as string)
    : null;
}

function children(n: ParseNode): readonly ParseNode[] {
  switch (n.kind) {
    case "sexp":
    case "list":
      return n.items;
    case "object":
      return n.entries.map((e) => e.value);
    default:
      return [];
  }
}

function scan(n: ParseNode, yr: StepYieldResume): void {
  const h = headName(n);
  if (h === "yield" && n.kind === "sexp") {
    yr.yields = true;
    yr.crossChain = n.items.length - 1 >= 2;
  } else if (h === "resume") yr.resumes = true;
  for (const c of children(n)) scan(c, yr);
}

/** The first problem of a defpact's steps (their forms in order), or null. */
export function defpactStepProblem(steps: readonly ParseNode[]): string | null {
  const yrs: StepYieldResume[] = [];
  for (const s of steps) {
    if (s.kind !== "sexp") return "Non-step in defpact";
    const withRollback = headName(s) === "step-with-rollback";
    const exec = s.items[s.items.length - (withRollback ? 2 : 1)];
    const yr = { yields: false, crossChain: false, resumes: false };
    if (exec !== undefined) scan(exec, yr);
    if (withRollback && yr.yields && yr.crossChain) return "Illegal rollback with yield";
    yrs.push(yr);
  }
  const last = yrs.length - 1;
  let prevYields = false;
  for (const [i, yr] of yrs.entries()) {
    if (yr.resumes && i === 0) return "Illegal resume in first step";
    if (yr.yields && i === last) return "Illegal yield in last step";
    if (prevYields && !yr.resumes) return "Missing resume after yield";
    if (!prevYields && yr.resumes) return "Missing yield before resume";
    prevYields = yr.yields;
  }
  return null;
}

/** The first problem of the defpacts of a module's form, with the defpact's name, or null. */
export function moduleDefpactProblem(moduleForm: ParseNode): string | null {
  for (const member of children(moduleForm)) {
    if (headName(member) !== "defpact" || member.kind !== "sexp") continue;
    const name = member.items[1];
    const steps = member.items.filter((n) => {
      const h = headName(n);
      return h === "step" || h === "step-with-rollback";
    });
    const problem = defpactStepProblem(steps);
    if (problem !== null)
      return `${name !== undefined && name.kind === "atom" ? name.parts.join(".") : "defpact"}: ${problem}`;
  }
  return null;
}
