/**
 * A test node holding the forked chain of forkedChain.ts, for API tests, and
 * small helpers to read responses.
 */
import type { LightMyRequestResponse } from "fastify";
import { buildForkedChain, type ForkedChain } from "./forkedChain.ts";
import { openTestNode, type TestNode } from "./testNode.ts";

export type ApiFixture = TestNode & { readonly chain: ForkedChain };

export async function openForkedNode(): Promise<ApiFixture> {
  const t = await openTestNode();
  return { ...t, chain: buildForkedChain(t.node.blocks) };
}

/** The JSON body of a response. */
export function json(r: LightMyRequestResponse): unknown {
  return JSON.parse(r.body);
}

/** A result page's fields. */
export function page<T = unknown>(
  r: LightMyRequestResponse,
): { limit: number; items: T[]; next: string | null } {
  return JSON.parse(r.body) as { limit: number; items: T[]; next: string | null };
}

/** A URL with query parameters. */
export function withQuery(
  path: string,
  query: Record<string, string | number | undefined>,
): string {
  const q = Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join("&");
  return q === "" ? path : `${path}?${q}`;
}
