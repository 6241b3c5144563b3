/**
 * Which peer holds which entity (docs/private.md "Announcing entities"):
 * each connected peer's `GET {base_url}/private/entity` (name and X25519
 * public key), asked when a `/private` command names an entity and the
 * peer's answer is older than {@link ANNOUNCE_MAX_AGE_MS} (or unknown).
 * Several peers may announce one entity (each gets its own envelope).
 * @module
 */
import { isNodeError } from "../../errors/nodeError.ts";
import { type PeerAddress, peerKey } from "../peerAddress.ts";
import type { AnnouncedEntity, PrivatePeerClient } from "./privatePeerClient.ts";

/** How long a peer's announcement is used before it is asked again, ms. */
export const ANNOUNCE_MAX_AGE_MS = 10_000;

export type EntityHolder = {
  readonly peer: PrivatePeerClient;
  readonly publicKey: Uint8Array;
};

type Known = { readonly announced: AnnouncedEntity; readonly at: number };

export type EntityDirectoryOptions = {
  /** The peers this node is connected to now. */
  readonly peers: () => readonly PeerAddress[];
  readonly client: (address: PeerAddress) => PrivatePeerClient;
  readonly now?: (() => number) | undefined;
};

export class EntityDirectory {
  readonly #options: EntityDirectoryOptions;
  readonly #known = new Map<string, Known>();

  constructor(options: EntityDirectoryOptions) {
    this.#options = options;
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  /** Asks the connected peers whose announcement is stale or unknown (all of them with `all`). */
  async refresh(all = false): Promise<void> {
    const now = this.#now();
    const peers = this.#options.peers();
    const live = new Set(peers.map(peerKey));
    for (const k of [...this.#known.keys()]) if (!live.has(k)) this.#known.delete(k);
    await Promise.all(
      peers.map(async (address) => {
        const key = peerKey(address);
        const known = this.#known.get(key);
        if (!all && known !== undefined && now - known.at < ANNOUNCE_MAX_AGE_MS) return;
        try {
          const announced = await this.#options.client(address).entity();
          this.#known.set(key, { announced, at: this.#now() });
        } catch (e) {
          if (!isNodeError(e)) throw e;
          this.#known.delete(key);
        }
      }),
    );
  }

  /** The peers announcing each of `entities` (after asking the stale ones). */
  async holders(entities: readonly string[]): Promise<Map<string, EntityHolder[]>> {
    await this.refresh();
    if (entities.some((e) => this.#holdersOf(e).length === 0)) await this.refresh(true);
    return new Map(entities.map((e) => [e, this.#holdersOf(e)]));
  }

  #holdersOf(entity: string): EntityHolder[] {
    const out: EntityHolder[] = [];
    for (const address of this.#options.peers()) {
      const known = this.#known.get(peerKey(address));
      if (known?.announced.entity === entity) {
        out.push({ peer: this.#options.client(address), publicKey: known.announced.publicKey });
      }
    }
    return out;
  }

  /** The entities announced by the connected peers, for error messages. */
  knownEntities(): string[] {
    const names = [...this.#known.values()].flatMap((k) =>
      k.announced.entity === null ? [] : [k.announced.entity],
    );
    return [...new Set(names)].sort();
  }
}
