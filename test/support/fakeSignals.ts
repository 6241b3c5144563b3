/** Stop signals a test sends itself (for `weft node` and the standalone server). */
import type { StopSignals } from "../../src-node/cli/node.ts";

export function fakeSignals(): { signals: StopSignals; send(signal: string): void } {
  let stop: ((s: string) => void) | undefined;
  const signals: StopSignals = {
    onStop(cb) {
      stop = cb;
      return () => {
        stop = undefined;
      };
    },
  };
  return { signals, send: (s: string) => stop?.(s) };
}
