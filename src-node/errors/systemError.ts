/**
 * Telling an operating-system error (a file or socket call that failed: `ENOENT`, `EACCES`, …)
 * from a bug, so that a catch ignores only the failure it expects and rethrows the rest.
 * @module
 */

/**
 * Whether `e` is an error Node.js raised for a system call, with one of `codes` when given.
 * @example
 * ```ts
 * try { rmSync(path); } catch (e) { if (!isSystemError(e, "ENOENT")) throw e; }
 * ```
 */
export function isSystemError(e: unknown, ...codes: string[]): e is NodeJS.ErrnoException {
  if (!(e instanceof Error)) return false;
  const code = (e as NodeJS.ErrnoException).code;
  return (
    typeof code === "string" &&
    /^E[A-Z0-9]+$/.test(code) &&
    (codes.length === 0 || codes.includes(code))
  );
}
