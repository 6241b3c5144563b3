/**
 * A moment as the app writes every one (`format/dateTime.ts`: "2026-12-02 04:58:10 UTC"),
 * in a `<time>` element whose line breaks only between the date and the time.
 * @module
 */
import { dateTimeParts } from "../format/dateTime.ts";

export function DateTime({ ms, testId }: { readonly ms: number; readonly testId?: string }) {
  const parts = dateTimeParts(ms);
  if (parts === null) return <span data-testid={testId}>unknown</span>;
  return (
    <time dateTime={new Date(ms).toISOString()} className="date-time" data-testid={testId}>
      <span>{parts.date}</span> <span>{parts.time}</span>
    </time>
  );
}
