/**
 * The HTTP client of one peer: the routes sync, gossip and peer exchange
 * use (the seed's read routes, `/send`, and the peer-only `PUT /cut` and
 * `GET /cut/peer`; docs/p2p.md). Every answer is parsed here; a failed
 * request or an unreadable answer is a P2P_PEER_UNREACHABLE error, a
 * readable but invalid one (a forged header, a payload whose hashes do not
 * match) P2P_PEER_MISBEHAVED.
 * @module
 */
import { blockHeaderFromObject } from "../chain/blockHeaderObject.ts";
import type { NetworkVersion } from "../chain/networkVersion.ts";
import { payloadWithOutputsFromJson } from "../chain/payloadWithOutputs.ts";
import { type Hash32, parseHash32 } from "../encoding/hash32.ts";
import { isNodeError } from "../errors/nodeError.ts";
import type { Block } from "../store/blockDb.ts";
import { type MisbehaviourKind, P2pError, P2pErrorCode } from "./errors.ts";
import { type PeerAddress, peerAddressOf, peerKey, peerOrigin } from "./peerAddress.ts";
import { type PeerCut, parsePeerCut } from "./peerCut.ts";
import { pinnedFetch } from "./tls/pinnedFetch.ts";

/** Default time a request to a peer may take, ms. */
export const PEER_REQUEST_TIMEOUT_MS = 10_000;

export type BranchQuery = {
  readonly upper: readonly Hash32[];
  readonly lower: readonly Hash32[];
  readonly maxHeight?: number | undefined;
  readonly minHeight?: number | undefined;
  readonly limit?: number | undefined;
  readonly next?: string | undefined;
};

export class PeerClient {
  readonly address: PeerAddress;
  readonly key: string;
  readonly #base: string;
  readonly #version: NetworkVersion;
  readonly #timeoutMs: number;

  constructor(address: PeerAddress, version: NetworkVersion, timeoutMs = PEER_REQUEST_TIMEOUT_MS) {
    this.address = address;
    this.key = peerKey(address);
    this.#version = version;
    this.#base = `${peerOrigin(address)}/ledger/0.0/${version.name}`;
    this.#timeoutMs = timeoutMs;
  }

  #unreachable(reason: string, status?: number): P2pError {
    return new P2pError(
      {
        code: P2pErrorCode.PeerUnreachable,
        peer: this.key,
        reason,
        ...(status === undefined ? {} : { status }),
      },
      `peer ${this.key}: ${reason}`,
    );
  }

  misbehaved(kind: MisbehaviourKind, reason: string): P2pError {
    return new P2pError(
      { code: P2pErrorCode.PeerMisbehaved, peer: this.key, kind, reason },
      `peer ${this.key} misbehaved: ${reason}`,
    );
  }

  async #request(url: string, init: RequestInit = {}): Promise<Response> {
    try {
      const signal = AbortSignal.timeout(this.#timeoutMs);
      // A TLS peer: its certificate must have the fingerprint it is named by (p2p/tls/).
      const id = this.address.id;
      return await (id === undefined ? fetch : pinnedFetch(id))(url, { ...init, signal });
    } catch (e) {
      throw this.#unreachable(
        e instanceof Error ? ((e.cause as Error)?.message ?? e.message) : String(e),
      );
    }
  }

  async #json(url: string, init: RequestInit = {}): Promise<unknown> {
    const res = await this.#request(url, init);
    const text = await res.text().catch(() => "");
    if (!res.ok) {
      throw this.#unreachable(`${res.status} from ${url}: ${text.slice(0, 200)}`, res.status);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw this.#unreachable(`${url} answered something that is not JSON`);
    }
  }

  /** `nodeVersion` of the peer's `/info`: the network it runs. */
  async network(): Promise<string> {
    const info = await this.#json(`${peerOrigin(this.address)}/info`);
    const v = (info as { nodeVersion?: unknown } | null)?.nodeVersion;
    if (typeof v !== "string") throw this.#unreachable("/info has no nodeVersion");
    return v;
  }

  /** The peer's best cut. */
  async cut(): Promise<PeerCut> {
    const body = await this.#json(`${this.#base}/cut`);
    try {
      return parsePeerCut(body, this.#version.chainIds);
    } catch (e) {
      if (!isNodeError(e)) throw e;
      throw this.misbehaved("malformed", `its cut: ${e.message}`);
    }
  }

  /**
   * One page of blocks of a chain between branch bounds, descending
   * (`POST …/block/branch`), each header's hash and payload's hashes checked.
   */
  async branchBlocks(
    chainId: number,
    q: BranchQuery,
  ): Promise<{ blocks: Block[]; next: string | undefined }> {
    const body = await this.#branch(chainId, "block", q);
    const page = body as { items?: unknown; next?: unknown } | null;
    if (!Array.isArray(page?.items))
      throw this.misbehaved("malformed", "a block page without items");
    const blocks = page.items.map((item: unknown, i): Block => {
      const b = item as { header?: unknown; payloadWithOutputs?: unknown } | null;
      try {
        const header = blockHeaderFromObject(b?.header);
        if (header.chainId !== chainId) throw new Error(`a block of chain ${header.chainId}`);
        return { header, payload: payloadWithOutputsFromJson(b?.payloadWithOutputs) };
      } catch (e) {
        // A header whose hash is not its own, or a payload that cannot be read: invalid.
        throw this.misbehaved(
          "invalid-block",
          `block ${i} of chain ${chainId}: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
    });
    const next = typeof page.next === "string" ? page.next : undefined;
    return { blocks, next };
  }

  /**
   * One page of block hashes of a chain between branch bounds, descending
   * (`POST …/hash/branch`): where a sync looks for the fork point.
   */
  async branchHashes(
    chainId: number,
    q: BranchQuery,
  ): Promise<{ hashes: Hash32[]; next: string | undefined }> {
    const body = await this.#branch(chainId, "hash", q);
    const page = body as { items?: unknown; next?: unknown } | null;
    if (!Array.isArray(page?.items))
      throw this.misbehaved("malformed", "a hash page without items");
    const hashes = page.items.map((item: unknown, i): Hash32 => {
      try {
        return parseHash32(item, `items[${i}]`);
      } catch (e) {
        if (!isNodeError(e)) throw e;
        throw this.misbehaved("malformed", `hash ${i} of chain ${chainId}: ${e.message}`);
      }
    });
    return { hashes, next: typeof page.next === "string" ? page.next : undefined };
  }

  #branch(chainId: number, what: "block" | "hash", q: BranchQuery): Promise<unknown> {
    const params = new URLSearchParams();
    if (q.limit !== undefined) params.set("limit", String(q.limit));
    if (q.maxHeight !== undefined) params.set("maxheight", String(q.maxHeight));
    if (q.minHeight !== undefined) params.set("minheight", String(q.minHeight));
    if (q.next !== undefined) params.set("next", q.next);
    return this.#json(`${this.#base}/chain/${chainId}/${what}/branch?${params}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ upper: q.upper, lower: q.lower }),
    });
  }

  /** Publishes a cut to the peer (`PUT /cut`, 204). */
  async putCut(published: unknown): Promise<void> {
    const res = await this.#request(`${this.#base}/cut`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(published),
    });
    const text = await res.text().catch(() => "");
    if (!res.ok) throw this.#unreachable(`PUT /cut: ${res.status} ${text.slice(0, 200)}`);
  }

  /** The peers the peer knows (`GET /cut/peer`), at most `max`. */
  async peers(max: number): Promise<PeerAddress[]> {
    const body = await this.#json(`${this.#base}/cut/peer`);
    const items = (body as { items?: unknown } | null)?.items;
    if (!Array.isArray(items)) throw this.misbehaved("malformed", "a peer page without items");
    const out: PeerAddress[] = [];
    for (const [i, item] of items.slice(0, max).entries()) {
      try {
        const it = item as { address?: unknown; id?: unknown } | null;
        out.push(peerAddressOf(it?.address, `items[${i}]`, it?.id));
      } catch (e) {
        if (!isNodeError(e)) throw e;
      }
    }
    return out;
  }

  /** Hands commands to the peer's `/send` (validated again there). */
  async send(chainId: number, cmds: readonly unknown[]): Promise<void> {
    await this.#json(`${this.#base}/chain/${chainId}/pact/api/v1/send`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cmds }),
    });
  }
}
