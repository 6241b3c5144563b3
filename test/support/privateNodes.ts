/**
 * For `/private` tests with `weft node` processes: a data folder whose
 * entity identity key exists before the node first starts (so other nodes
 * can pin it on their command line), and the HTTP calls the tests make.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import { type EntityKeys, loadOrCreateEntityKeys } from "../../src-node/p2p/private/entityKeys.ts";
import type { NodeProcess } from "./nodeProcess.ts";

export type EntityFolder = {
  readonly dataDir: string;
  readonly keys: EntityKeys;
  /** The public key as the node shows it (what `--trust-entity NAME=KEY` takes). */
  readonly publicKey: string;
};

/** A fresh data folder holding an entity key (test-singleton). */
export function entityFolder(): EntityFolder {
  const dataDir = mkdtempSync(join(tmpdir(), "weft-p2p-"));
  const { keys } = loadOrCreateEntityKeys(join(dataDir, "test-singleton", "entity-key.json"));
  return { dataDir, keys, publicKey: base64UrlEncode(keys.publicKey) };
}

/** `--trust-entity NAME=KEY` for each entity. */
export function trustFlags(pins: Record<string, EntityFolder>): string[] {
  return Object.entries(pins).flatMap(([name, f]) => ["--trust-entity", `${name}=${f.publicKey}`]);
}

/** `POST {base_url}/chain/0/pact/api/v1/<path>` */
export function postPact(n: NodeProcess, path: string, body: unknown): Promise<Response> {
  return fetch(`${n.base}/chain/0/pact/api/v1/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** `POST {base_url}/private/envelope` */
export function postEnvelope(n: NodeProcess, envelope: unknown): Promise<Response> {
  return fetch(`${n.base}/private/envelope`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(envelope),
  });
}

/** Waits until `n` lists each of `addresses` as a connected peer. */
export async function connectedTo(
  n: NodeProcess,
  addresses: readonly string[],
): Promise<boolean | undefined> {
  const r = (await (await n.app("peers")).json()) as {
    peers: { address: string; network: string }[];
  };
  const ok = r.peers.filter((p) => p.network === "ok").map((p) => p.address);
  return addresses.every((a) => ok.includes(a)) ? true : undefined;
}
