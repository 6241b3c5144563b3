/**
 * A node for tests: a temporary data directory, a real blocks.sqlite, the
 * HTTP server not listening (requests go through `inject()`), execution on
 * the node's thread (`executionWorkers: 0`, unless given), and cleanup that
 * closes the node and removes the directory.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { type CreateNodeOptions, createNode, type WeftNode } from "../../src-node/node.ts";

export type TestNode = {
  readonly node: WeftNode;
  readonly dir: string;
  /** `/ledger/0.0/{network}` */
  readonly base: string;
  request(
    method: "GET" | "POST" | "OPTIONS" | "HEAD" | "PUT" | "DELETE",
    url: string,
    options?: { headers?: Record<string, string>; body?: unknown; rawBody?: string | Buffer },
  ): Promise<LightMyRequestResponse>;
  /** Closes the node (if still open) and removes the data directory. */
  cleanup(): Promise<void>;
};

/** A temporary directory for a test; remove it with `rmSync(dir, {recursive: true})`. */
export function tempDir(prefix = "weft-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function openTestNode(
  options: Partial<CreateNodeOptions> & { dir?: string } = {},
): Promise<TestNode> {
  const dir = options.dir ?? tempDir();
  const node = await createNode({
    network: "test-singleton",
    dataDir: dir,
    port: 0,
    listen: false,
    // In process unless a test asks for workers: a thread per node would slow
    // every test; test/unit/execWorker.test.ts covers the workers.
    executionWorkers: 0,
    ...options,
  });
  return {
    node,
    dir,
    base: node.basePath,
    request(method, url, o = {}) {
      const headers: Record<string, string> = { ...(o.headers ?? {}) };
      let payload: string | Buffer | undefined = o.rawBody;
      if (o.body !== undefined) {
        payload = JSON.stringify(o.body);
        headers["content-type"] ??= "application/json";
      }
      return node.server.inject({
        method,
        url,
        headers,
        ...(payload === undefined ? {} : { payload }),
      });
    },
    async cleanup() {
      await node.close();
      if (options.dir === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}
