/**
 * The HTTP client of one peer: the routes sync, gossip and peer exchange
 * use (the seed's read routes, `/send`, and the peer-only `PUT /cut` and
 * `GET /cut/peer`; docs/p2p.md). Every answer is read within a size limit
 * fitting what it holds ({@link READ_LIMITS}, enforced while it streams:
 * boundedBody.ts) and parsed here; a failed request or an unreadable answer
 * is a P2P_PEER_UNREACHABLE error, a readable but invalid one (a forged
 * header, a payload whose hashes do not match) or one past its limit
 * (`oversized`: the connection is dropped) P2P_PEER_MISBEHAVED.
 * @module
 */
import { blockHeaderFromObject } from "../chain/blockHeaderObject.ts";
import type { NetworkVersion } from "../chain/networkVersion.ts";
import { payloadWithOutputsFromJson } from "../chain/payloadWithOutputs.ts";
import { type Hash32, parseHash32 } from "../encoding/hash32.ts";
import { isNodeError } from "../errors/nodeError.ts";
import type { Block } from "../store/blockDb.ts";
import { BodyTooLarge, readBoundedText } from "./boundedBody.ts";
import { type MisbehaviourKind, P2pError, P2pErrorCode } from "./errors.ts";
import { newChallenge, verifyNodeProof } from "./nodeIdentity.ts";
import { type PeerAddress, peerAddressOf, peerKey, peerOrigin } from "./peerAddress.ts";
import { type PeerCut, parsePeerCut } from "./peerCut.ts";
import { pinnedFetch } from "./tls/pinnedFetch.ts";

/** Default time a request to a peer may take, body included, ms. */
export const PEER_REQUEST_TIMEOUT_MS = 10_000;

const KIB = 1024;
const MIB = 1024 * KIB;

/**
 * Most bytes read of each answer. A cut of 20 chains is about 3 KB, a page
 * of 360 empty blocks about 1 MB, a block full of transfers about 0.5 MB.
 */
export const READ_LIMITS = {
  /** `/info`, `/cut`, `/send`'s answer, an error's text. */
  small: 64 * KIB,
  /** `GET /cut/peer`. */
  peers: 256 * KIB,
  /** A page of hashes: per hash (a quoted 43-character hash and a comma), and the page. */
  hash: 64,
  page: 4 * KIB,
  /** A page of blocks: per block asked, and the page. */
  block: 512 * KIB,
  /** A page of one block (a block alone may be large). */
  oneBlock: 8 * MIB,
  /** A page of blocks, however many are asked. */
  blockPage: 32 * MIB,
} as const;

/** The limit of a page of up to `blocks` blocks. */
export function blockPageLimit(blocks: number): number {
  if (blocks <= 1) return READ_LIMITS.oneBlock;
  return Math.min(READ_LIMITS.blockPage, MIB + blocks * READ_LIMITS.block);
}

/** What `/info?challenge=` answered: the network and the identity the peer proved. */
export type PeerInfo = { readonly network: string; readonly nodeId: string | undefined };

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

  /**
   * The answer's text, read within `limit` bytes and the request's time. Past
   * the limit the connection is dropped and the peer misbehaved (`oversized`).
   */
  async #text(
    url: string,
    init: RequestInit,
    limit: number,
  ): Promise<{ status: number; ok: boolean; text: string }> {
    const abort = new AbortController();
    const signal = AbortSignal.any([AbortSignal.timeout(this.#timeoutMs), abort.signal]);
    try {
      // A TLS peer: its certificate must have the fingerprint it is named by (p2p/tls/).
      const id = this.address.id;
      const res = await (id === undefined ? fetch : pinnedFetch(id))(url, { ...init, signal });
      // An error's text is only shown: a few bytes of it are enough.
      const text = await readBoundedText(res, res.ok ? limit : READ_LIMITS.small, url);
      return { status: res.status, ok: res.ok, text };
    } catch (e) {
      if (e instanceof BodyTooLarge) {
        abort.abort();
        throw this.misbehaved("oversized", `its answer to ${url} exceeds ${e.limit} bytes`);
      }
      throw this.#unreachable(
        e instanceof Error ? ((e.cause as Error)?.message ?? e.message) : String(e),
      );
    }
  }

  async #json(url: string, init: RequestInit, limit: number): Promise<unknown> {
    const { ok, status, text } = await this.#text(url, init, limit);
    if (!ok) throw this.#unreachable(`${status} from ${url}: ${text.slice(0, 200)}`, status);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw this.#unreachable(`${url} answered something that is not JSON`);
    }
  }

  /**
   * The peer's `/info` with a fresh challenge: the network it runs
   * (`nodeVersion`) and the identity it proves (`nodeId`, `nodeProof`:
   * p2p/nodeIdentity.ts); `nodeId` undefined when the proof is missing or wrong.
   */
  async info(): Promise<PeerInfo> {
    const challenge = newChallenge();
    const info = await this.#json(
      `${peerOrigin(this.address)}/info?challenge=${challenge}`,
      {},
      READ_LIMITS.small,
    );
    const o = info as { nodeVersion?: unknown; nodeId?: unknown; nodeProof?: unknown } | null;
    const network = o?.nodeVersion;
    if (typeof network !== "string") throw this.#unreachable("/info has no nodeVersion");
    const proved = verifyNodeProof(network, challenge, o?.nodeId, o?.nodeProof);
    return { network, nodeId: proved ? (o?.nodeId as string) : undefined };
  }

  /** The peer's best cut. */
  async cut(): Promise<PeerCut> {
    const body = await this.#json(`${this.#base}/cut`, {}, READ_LIMITS.small);
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
    const asked = Math.min(
      q.limit ?? Number.POSITIVE_INFINITY,
      q.maxHeight !== undefined && q.minHeight !== undefined
        ? q.maxHeight - q.minHeight + 1
        : Number.POSITIVE_INFINITY,
    );
    const body = await this.#branch(chainId, "block", q, blockPageLimit(asked));
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
    const asked = q.limit ?? 4096;
    const body = await this.#branch(
      chainId,
      "hash",
      q,
      READ_LIMITS.page + asked * READ_LIMITS.hash,
    );
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

  #branch(
    chainId: number,
    what: "block" | "hash",
    q: BranchQuery,
    limit: number,
  ): Promise<unknown> {
    const params = new URLSearchParams();
    if (q.limit !== undefined) params.set("limit", String(q.limit));
    if (q.maxHeight !== undefined) params.set("maxheight", String(q.maxHeight));
    if (q.minHeight !== undefined) params.set("minheight", String(q.minHeight));
    if (q.next !== undefined) params.set("next", q.next);
    return this.#json(
      `${this.#base}/chain/${chainId}/${what}/branch?${params}`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ upper: q.upper, lower: q.lower }),
      },
      limit,
    );
  }

  /** Publishes a cut to the peer (`PUT /cut`, 204). */
  async putCut(published: unknown): Promise<void> {
    const { ok, status, text } = await this.#text(
      `${this.#base}/cut`,
      {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(published),
      },
      READ_LIMITS.small,
    );
    if (!ok) throw this.#unreachable(`PUT /cut: ${status} ${text.slice(0, 200)}`, status);
  }

  /** The peers the peer knows (`GET /cut/peer`), at most `max`. */
  async peers(max: number): Promise<PeerAddress[]> {
    const body = await this.#json(`${this.#base}/cut/peer`, {}, READ_LIMITS.peers);
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
    await this.#json(
      `${this.#base}/chain/${chainId}/pact/api/v1/send`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ cmds }),
      },
      READ_LIMITS.small,
    );
  }
}
