/**
 * Where each pinned entity is (docs/private.md "Finding an entity"): each
 * connected peer's `GET {base_url}/private/entity` (its entity name and
 * public identity), asked when a `/private` command names an entity and the
 * peer's answer is older than {@link ANNOUNCE_MAX_AGE_MS} (or unknown).
 *
 * An announcement only says where an entity may be found; it never
 * decides what an entity's key is. A peer is a holder of an entity only when
 * it announces the key this node pinned for it (trustedEntities.ts); one
 * announcing a pinned entity with another key gets nothing and is reported
 * to `onFalseKey` (the peer network penalises it), once per false claim.
 * Several peers may hold one entity (each gets its own envelope).
 * @module
 */
import { isNodeError } from "../../errors/nodeError.ts";
import { type PeerAddress, peerKey } from "../peerAddress.ts";
import { entityFingerprint, entityKeyText } from "./entityIdentity.ts";
import type { AnnouncedEntity, PrivatePeerClient } from "./privatePeerClient.ts";

/** How long a peer's announcement is used before it is asked again, ms. */
export const ANNOUNCE_MAX_AGE_MS = 10_000;

export type EntityHolder = {
  readonly peer: PrivatePeerClient;
  /** The entity's pinned key (which the peer announced too). */
  readonly publicKey: Uint8Array;
};

/** A peer that announced a pinned entity with another key. */
export type FalseAnnouncement = { readonly peer: string; readonly entity: string };

type Known = { readonly announced: AnnouncedEntity; readonly at: number };

export type EntityDirectoryOptions = {
  /** The peers this node is connected to now. */
  readonly peers: () => readonly PeerAddress[];
  readonly client: (address: PeerAddress) => PrivatePeerClient;
  /** The pinned key of an entity, or undefined when this node does not trust it. */
  readonly pinned: (entity: string) => Uint8Array | undefined;
  /** Called once per false claim (peer, entity, key) with the peer this node asked. */
  readonly onFalseKey?: ((address: PeerAddress, reason: string) => void) | undefined;
  readonly now?: (() => number) | undefined;
};

const MAX_REMEMBERED_CLAIMS = 4096;

export class EntityDirectory {
  readonly #options: EntityDirectoryOptions;
  readonly #known = new Map<string, Known>();
  /** False claims already reported: `peer\0entity\0key`. */
  readonly #reported = new Set<string>();

  constructor(options: EntityDirectoryOptions) {
    this.#options = options;
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  /**
   * Asks the connected peers whose announcement is stale or unknown (all of
   * them with `all`), and those that announced one of `confirm`.
   */
  async refresh(all = false, confirm: readonly string[] = []): Promise<void> {
    const now = this.#now();
    const peers = this.#options.peers();
    const live = new Set(peers.map(peerKey));
    for (const k of [...this.#known.keys()]) if (!live.has(k)) this.#known.delete(k);
    await Promise.all(
      peers.map(async (address) => {
        const key = peerKey(address);
        const known = this.#known.get(key);
        const holds = known?.announced.entity != null && confirm.includes(known.announced.entity);
        if (!all && !holds && known !== undefined && now - known.at < ANNOUNCE_MAX_AGE_MS) return;
        try {
          const announced = await this.#options.client(address).entity();
          this.#known.set(key, { announced, at: this.#now() });
          this.#checkClaim(address, announced);
        } catch (e) {
          if (!isNodeError(e)) throw e;
          this.#known.delete(key);
        }
      }),
    );
  }

  #checkClaim(address: PeerAddress, announced: AnnouncedEntity): void {
    if (announced.entity === null) return;
    const pinned = this.#options.pinned(announced.entity);
    if (pinned === undefined || entityKeyText(pinned) === entityKeyText(announced.publicKey)) {
      return;
    }
    const claim = `${peerKey(address)}\0${announced.entity}\0${entityKeyText(announced.publicKey)}`;
    if (this.#reported.has(claim)) return;
    if (this.#reported.size >= MAX_REMEMBERED_CLAIMS) this.#reported.clear();
    this.#reported.add(claim);
    this.#options.onFalseKey?.(
      address,
      `announces entity ${JSON.stringify(announced.entity)} with key ${entityFingerprint(announced.publicKey)}, not the pinned key ${entityFingerprint(pinned)} (if the entity changed its key, pin the new one)`,
    );
  }

  /**
   * The peers holding each of `entities` (after asking the stale ones), and
   * the peers that announce one of them with another key than the pinned one.
   */
  async holders(
    entities: readonly string[],
  ): Promise<{ holders: Map<string, EntityHolder[]>; falseKeys: FalseAnnouncement[] }> {
    // A holder is asked again even when its answer is fresh: a node that
    // restarted (new key, or gone while still listed as connected) must not
    // be sealed for on a ten-second-old word.
    await this.refresh(false, entities);
    if (entities.some((e) => this.#holdersOf(e).length === 0)) await this.refresh(true);
    const falseKeys: FalseAnnouncement[] = [];
    for (const address of this.#options.peers()) {
      const announced = this.#known.get(peerKey(address))?.announced;
      if (announced?.entity == null || !entities.includes(announced.entity)) continue;
      const pinned = this.#options.pinned(announced.entity);
      if (pinned !== undefined && entityKeyText(pinned) !== entityKeyText(announced.publicKey)) {
        falseKeys.push({ peer: peerKey(address), entity: announced.entity });
      }
    }
    return { holders: new Map(entities.map((e) => [e, this.#holdersOf(e)])), falseKeys };
  }

  #holdersOf(entity: string): EntityHolder[] {
    const pinned = this.#options.pinned(entity);
    if (pinned === undefined) return [];
    const out: EntityHolder[] = [];
    for (const address of this.#options.peers()) {
      const known = this.#known.get(peerKey(address));
      if (
        known?.announced.entity === entity &&
        entityKeyText(known.announced.publicKey) === entityKeyText(pinned)
      ) {
        out.push({ peer: this.#options.client(address), publicKey: pinned });
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
