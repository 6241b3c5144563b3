/**
 * A hash, key or account name: monospace, wrapped anywhere so it never widens its card,
 * optionally shortened (the full value in the tooltip), with a copy button.
 * @module
 */
import { shortHash } from "../format/number.ts";
import { CopyButton } from "./CopyButton.tsx";

export type LongValueProps = {
  readonly value: string;
  /** For the copy button: "block hash". */
  readonly what: string;
  readonly short?: boolean;
  readonly copy?: boolean;
  readonly testId?: string;
};

export function LongValue({ value, what, short = false, copy = true, testId }: LongValueProps) {
  return (
    <span className="long-value">
      <code title={short ? value : undefined} data-testid={testId}>
        {short ? shortHash(value) : value}
      </code>
      {copy ? <CopyButton value={value} what={what} /> : null}
    </span>
  );
}
