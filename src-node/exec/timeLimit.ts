/**
 * The wall-clock limit of one command's payload: the last line of defence
 * behind gas (which bounds time: docs/contract-language.md, "Size charges")
 * and the evaluator's deterministic step bound. A clock makes the outcome
 * depend on the machine, so it is used only where the outcome is this node's
 * alone and never becomes part of a block:
 * - building a mining payload: a command past the limit is left out of the
 *   block and leaves the mempool (chainweb likewise bounds each transaction's
 *   time while it makes a new block, and never while validating one);
 * - `/local`: the answer is a failure naming the limit.
 * Validating a block (ours or a peer's) runs without it, so every node
 * computes the same outputs; docs/execution.md, "Limits".
 * @module
 */
import type { GasMeter } from "../contract/eval/runtimeContext.ts";
import { DEFAULT_STEP_LIMIT } from "../contract/eval/runtimeContext.ts";
import { ExecError, ExecErrorCode } from "./errors.ts";

/** The default limit of one payload's evaluation (gas keeps real commands far below it). */
export const DEFAULT_COMMAND_TIME_LIMIT_MS = 10_000;

/** Steps between two looks at the clock. */
const CHECK_EVERY = 1024;

/** A step meter (as the evaluator's default) that also aborts the run after `limitMs` of wall time. */
export class TimedStepMeter implements GasMeter {
  used = 0;
  readonly limit: number;
  readonly limitMs: number;
  readonly #deadline: number;
  #sinceCheck = 0;

  constructor(limitMs: number, stepLimit = DEFAULT_STEP_LIMIT) {
    this.limit = stepLimit;
    this.limitMs = limitMs;
    this.#deadline = performance.now() + limitMs;
  }

  charge(units: number): boolean {
    this.used += units;
    this.#sinceCheck += units;
    if (this.#sinceCheck >= CHECK_EVERY) {
      this.#sinceCheck = 0;
      if (performance.now() > this.#deadline) throw timeLimitExceeded(this.limitMs);
    }
    return this.used <= this.limit;
  }
}

export function timeLimitExceeded(limitMs: number): ExecError {
  return new ExecError(
    { code: ExecErrorCode.TimeLimit, limitMs },
    `the command's execution passed the time limit of ${limitMs} ms`,
  );
}

/** True for the error a {@link TimedStepMeter} aborts with. */
export function isTimeLimit(e: unknown): e is ExecError {
  return e instanceof ExecError && e.code === ExecErrorCode.TimeLimit;
}
