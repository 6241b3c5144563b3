/**
 * The defpact step being executed (the reference's `PactStep` in the
 * evaluation environment): what `yield`, `resume`, `pact-id`, `continue` and
 * pact guards see.
 * @module
 */
import type { PactExec, PactYield } from "../storage/pactExec.ts";
import type { PactValue } from "../values/value.ts";
import type { FunctionDef } from "./definitions.ts";

export type PactStepContext = {
  readonly pactId: string;
  readonly step: number;
  readonly rollback: boolean;
  readonly def: FunctionDef;
  readonly args: readonly PactValue[];
  /** The previous step's yield, which `resume` binds. */
  readonly resume: PactYield | null;
  /** True when this step has a rollback (cross-chain yields are refused then). */
  readonly stepHasRollback: boolean;
  /** What this step yields. */
  yielded: PactYield | null;
  /** Nested defpacts' states, by pact id. */
  readonly nested: Map<string, PactExec>;
};
