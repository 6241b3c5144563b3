/**
 * Errors of the contract area.
 *
 * Two kinds on purpose (style guide §2.1): a *contract failure* (a syntax error in
 * user code, a failed `enforce`, a type error, running out of steps) is a value
 * that evaluation returns as `{ ok: false, error }`; inside the evaluator it
 * travels as a thrown {@link ContractError} and is turned into a value at the
 * evaluation boundary. A *bug* (a state the evaluator should never reach) is a
 * {@link ContractError} with code `CONTRACT_INVARIANT` and is rethrown.
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";
import type { Span } from "./syntax/span.ts";

/** The reference's error kinds (`PactErrorType`), the `type` of a failure result. */
export const PactErrorKind = {
  EvalError: "EvalError",
  ArgsError: "ArgsError",
  DbError: "DbError",
  TxFailure: "TxFailure",
  SyntaxError: "SyntaxError",
  GasError: "GasError",
} as const;
export type PactErrorKind = (typeof PactErrorKind)[keyof typeof PactErrorKind];

export const ContractErrorCode = {
  Syntax: "CONTRACT_SYNTAX",
  Eval: "CONTRACT_EVAL",
  Args: "CONTRACT_ARGS",
  TxFailure: "CONTRACT_TX_FAILURE",
  Db: "CONTRACT_DB",
  Gas: "CONTRACT_GAS",
  Invariant: "CONTRACT_INVARIANT",
} as const;

/** Code of each failure kind, so a failure can be mapped with a table. */
export const codeOfKind: Record<PactErrorKind, ContractFailureCode> = {
  EvalError: ContractErrorCode.Eval,
  ArgsError: ContractErrorCode.Args,
  DbError: ContractErrorCode.Db,
  TxFailure: ContractErrorCode.TxFailure,
  SyntaxError: ContractErrorCode.Syntax,
  GasError: ContractErrorCode.Gas,
};

export type ContractFailureCode = Exclude<
  (typeof ContractErrorCode)[keyof typeof ContractErrorCode],
  typeof ContractErrorCode.Invariant
>;

/** A contract failure as data: what a failed evaluation returns. */
export type PactError = {
  readonly kind: PactErrorKind;
  readonly message: string;
  /** Where it happened; null when no source position applies (e.g. a JSON input). */
  readonly span: Span | null;
  /** Innermost call first, each rendered `file:line:col: (name args…)`. */
  readonly callStack: readonly string[];
};

export type ContractErrorType =
  | { code: ContractFailureCode; failure: PactError }
  | { code: typeof ContractErrorCode.Invariant; reason: string };

export class ContractError extends NodeError<ContractErrorType> {}

/** Renders a span the way the reference renders `info`: `file:line:col`. */
export function renderInfo(span: Span | null): string {
  return span === null ? "" : `${span.file}:${span.line}:${span.column}`;
}

const kindPrefix: Record<PactErrorKind, string> = {
  EvalError: "",
  ArgsError: "",
  TxFailure: "Tx Failed: ",
  DbError: "Database exception: ",
  SyntaxError: "Syntax error: ",
  GasError: "Gas Error: ",
};

/**
 * The reference's rendered form of an error, `<info>: Failure: [Tx Failed: ]<message>`,
 * which `expect-failure` matches substrings against.
 */
export function renderPactError(e: PactError): string {
  return `${renderInfo(e.span)}: Failure: ${kindPrefix[e.kind]}${e.message}`;
}

/** Builds the thrown carrier of a contract failure. */
export function contractFailure(
  kind: PactErrorKind,
  message: string,
  span: Span | null,
  callStack: readonly string[] = [],
): ContractError {
  const failure: PactError = { kind, message, span, callStack };
  return new ContractError({ code: codeOfKind[kind], failure }, renderPactError(failure));
}

/** A bug: the evaluator reached a state it should never reach. */
export function contractInvariant(reason: string, cause?: unknown): ContractError {
  return new ContractError(
    { code: ContractErrorCode.Invariant, reason },
    `contract invariant: ${reason}`,
    cause === undefined ? undefined : { cause },
  );
}

/** The failure inside a thrown contract error, or null for invariants and foreign errors. */
export function failureOf(e: unknown): PactError | null {
  if (e instanceof ContractError && e.type.code !== ContractErrorCode.Invariant) {
    return e.type.failure;
  }
  return null;
}
