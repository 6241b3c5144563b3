/**
 * The desktop's node host against the real node: `startNode` resolves once the node
 * listens on loopback, with the base and app URLs docs/desktop.md promises, and `close()`
 * stops it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startNode } from "../../electron/nodeHost.ts";

const dataDir = mkdtempSync(join(tmpdir(), "weft-nodehost-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("[electron] node host", () => {
  it("starts the node on 127.0.0.1, answers on its base URL, and closes", async () => {
    const logged: string[] = [];
    const node = await startNode({
      network: "development",
      dataDir,
      host: "127.0.0.1",
      port: 0,
      logger: {
        info: (m) => logged.push(m),
        warn: (m) => logged.push(m),
        error: (m) => logged.push(m),
      },
    });
    try {
      expect(node.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ledger\/0\.0\/development$/);
      expect(node.appUrl).toBe(`${new URL(node.baseUrl).origin}/app/`);
      const health = await fetch(`${node.baseUrl}/health-check`);
      expect(health.status).toBe(200);
      const cut = (await (await fetch(`${node.baseUrl}/cut`)).json()) as { instance: string };
      expect(cut.instance).toBe("development");
    } finally {
      await node.close();
    }
    await expect(fetch(`${node.baseUrl}/health-check`)).rejects.toThrow();
    expect(logged.length).toBeGreaterThan(0);
  });
});
