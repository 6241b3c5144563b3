/**
 * Starts the vault's dedicated worker. Vite sees `new Worker(new URL(…, import.meta.url))`
 * and bundles vaultWorker.ts as its own module file (same origin, allowed by the CSP's
 * `worker-src`/`script-src 'self'`). Kept apart from vaultClient.ts, which Node tests import.
 * @module
 */
import type { VaultTransport } from "./vaultClient.ts";

export function startVaultWorker(): VaultTransport {
  const worker = new Worker(new URL("./vaultWorker.ts", import.meta.url), {
    type: "module",
    name: "vault",
  });
  const transport: VaultTransport = {
    postMessage: (m) => worker.postMessage(m),
    onmessage: null,
    terminate: () => worker.terminate(),
  };
  worker.onmessage = (e: MessageEvent<unknown>) => transport.onmessage?.({ data: e.data });
  return transport;
}
