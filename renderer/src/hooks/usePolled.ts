/**
 * Loads a value from the node now and again every `intervalMs` (after the previous load
 * finished, so slow replies never pile up). `refresh()` loads at once, e.g. from a
 * "Try again" button.
 * @module
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { ClientResult } from "../api/clientError.ts";

export type Polled<T> = {
  /** The last result; null before the first reply. */
  readonly result: ClientResult<T> | null;
  readonly refresh: () => void;
  /** Replaces the value (e.g. with the reply of a change). */
  readonly set: (result: ClientResult<T>) => void;
};

export function usePolled<T>(load: () => Promise<ClientResult<T>>, intervalMs: number): Polled<T> {
  const [result, setResult] = useState<ClientResult<T> | null>(null);
  const generation = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const run = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    const mine = ++generation.current;
    void load().then((r) => {
      if (mine !== generation.current) return;
      setResult(r);
      timer.current = setTimeout(run, intervalMs);
    });
  }, [load, intervalMs]);

  useEffect(() => {
    run();
    return () => {
      generation.current += 1;
      if (timer.current !== null) clearTimeout(timer.current);
    };
  }, [run]);

  return { result, refresh: run, set: setResult };
}
