/**
 * The two peer-only routes of `/private` seen from the other side
 * (docs/private.md "Routes"): `GET {base_url}/private/entity` (a peer's
 * entity name and public identity) and `POST {base_url}/private/envelope`
 * (an envelope for the peer's entity; the answer is its receipt, checked by
 * the caller: deliveryReceipt.ts). Answers are parsed here; a failed
 * request or an unreadable answer is a P2P_PEER_UNREACHABLE error.
 * @module
 */
import { base64UrlDecode } from "../../encoding/base64url.ts";
import { isNodeError } from "../../errors/nodeError.ts";
import { P2pError, P2pErrorCode } from "../errors.ts";
import { type PeerAddress, peerKey, peerOrigin } from "../peerAddress.ts";
import type { Envelope } from "./sealedEnvelope.ts";

/** What a peer announces: its entity name (null: none) and its public identity (a claim only). */
export type AnnouncedEntity = { readonly entity: string | null; readonly publicKey: Uint8Array };

/** How a request reaches a peer (default: `fetch`; TLS peers pin their certificate). */
export type PeerFetch = (url: string, init: RequestInit) => Promise<Response>;

export class PrivatePeerClient {
  readonly address: PeerAddress;
  readonly key: string;
  readonly #base: string;
  readonly #timeoutMs: number;
  readonly #fetch: PeerFetch;

  constructor(address: PeerAddress, network: string, timeoutMs: number, fetcher?: PeerFetch) {
    this.address = address;
    this.key = peerKey(address);
    this.#base = `${peerOrigin(address)}/ledger/0.0/${network}/private`;
    this.#timeoutMs = timeoutMs;
    this.#fetch = fetcher ?? ((url, init) => fetch(url, init));
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

  async #request(path: string, init: RequestInit): Promise<string> {
    let res: Response;
    try {
      res = await this.#fetch(`${this.#base}/${path}`, {
        ...init,
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (e) {
      throw this.#unreachable(
        e instanceof Error ? ((e.cause as Error)?.message ?? e.message) : String(e),
      );
    }
    const text = await res.text().catch(() => "");
    if (!res.ok) throw this.#unreachable(`${res.status}: ${text.slice(0, 300)}`, res.status);
    return text;
  }

  /** The peer's entity and public key (`GET …/private/entity`). */
  async entity(): Promise<AnnouncedEntity> {
    const text = await this.#request("entity", { method: "GET" });
    let o: { entity?: unknown; publicKey?: unknown };
    try {
      o = JSON.parse(text) as typeof o;
    } catch {
      throw this.#unreachable("/private/entity answered something that is not JSON");
    }
    const entity = o?.entity;
    if (entity !== null && (typeof entity !== "string" || entity === "")) {
      throw this.#unreachable("/private/entity: entity is not a name or null");
    }
    try {
      const publicKey = base64UrlDecode(String(o.publicKey), "publicKey");
      if (publicKey.length !== 32) throw this.#unreachable("/private/entity: not a 32-byte key");
      return { entity, publicKey };
    } catch (e) {
      if (!isNodeError(e)) throw e;
      throw this.#unreachable(`/private/entity: publicKey: ${e.message}`);
    }
  }

  /**
   * Delivers an envelope (`POST …/private/envelope`); resolves, once the peer
   * ran the command, with its answer (a receipt to check).
   */
  async deliver(envelope: Envelope): Promise<unknown> {
    const text = await this.#request("envelope", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(envelope),
    });
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw this.#unreachable("/private/envelope answered something that is not JSON");
    }
  }
}
