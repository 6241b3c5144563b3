/**
 * `PrivateService`: `/private` between addressed entities (docs/private.md).
 * - `send` (`POST …/pact/api/v1/private`): reads the command in full
 *   (privateCommand.ts; bad input is a 400 naming the field), checks that
 *   this node has an entity and is the command's `from`, that every
 *   addressed entity is pinned (trustedEntities.ts) and held by a peer that
 *   announces its pinned key (entityDirectory.ts), runs the command on this
 *   node's private state (the sender is a party), then seals it for each
 *   holder to the pinned key, signed with this entity's key
 *   (sealedEnvelope.ts), and delivers it; an entity counts as reached with
 *   its signed receipt (deliveryReceipt.ts). Answers `{"requestKeys": [key]}`.
 * - `receive` (`POST {base_url}/private/envelope`, peer-only): accepts an
 *   envelope for this node's entity only when signed by the pinned key of
 *   its sender, within the replay window and not seen before; opens it,
 *   checks the command again (signatures included, `from` equal to the
 *   signer) and runs it on the private state; answers a signed receipt.
 * - `poll`: results of private commands this node ran, for `/poll`.
 * - `partyChains`: each party set's steps, digest and the comparisons with
 *   the other parties (the Node page; partyChain.ts).
 * The plain command never goes to the mempool, a block, a log line or a
 * node that is not addressed: a peer that is not the pinned entity gets
 * nothing it can open.
 * @module
 */
import type { NetworkVersion } from "../../chain/networkVersion.ts";
import { isHashText } from "../../encoding/base64url.ts";
import { isNodeError } from "../../errors/nodeError.ts";
import type { PartyCheck, PartyHead } from "../../store/privateLedgerStore.ts";
import type { SqlDatabase } from "../../store/sqlDatabase.ts";
import { type PeerAddress, peerKey } from "../peerAddress.ts";
import { pinnedFetch } from "../tls/pinnedFetch.ts";
import { isReceiptOf, type Receipt, readReceipt, signReceipt } from "./deliveryReceipt.ts";
import { EntityDirectory, type EntityHolder } from "./entityDirectory.ts";
import { entityFingerprint, entityKeyText } from "./entityIdentity.ts";
import type { EntityKeys } from "./entityKeys.ts";
import { badEnvelope, PrivateError, PrivateErrorCode } from "./errors.ts";
import { type PartyView, partiesOf } from "./partyChain.ts";
import { type PrivateCommand, readPrivateCommand } from "./privateCommand.ts";
import { type PeerFetch, PrivatePeerClient } from "./privatePeerClient.ts";
import { PrivateState } from "./privateState.ts";
import {
  type Envelope,
  isSignedBy,
  newEnvelopeId,
  openEnvelope,
  parseEnvelope,
  sealEnvelope,
} from "./sealedEnvelope.ts";
import { TrustedEntities } from "./trustedEntities.ts";

/** How long an envelope is accepted after it was sent (and its id remembered), µs. */
export const REPLAY_WINDOW_MICROS = 10 * 60 * 1_000_000;
/** How far ahead of this node's clock a sender's clock may be, µs. */
export const CLOCK_SKEW_MICROS = 2 * 60 * 1_000_000;

export type PrivateLog = {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
};

export type PrivateServiceOptions = {
  readonly version: NetworkVersion;
  /** This node's entity name (`p2p.entity`); absent: /private is refused. */
  readonly entity?: string | undefined;
  readonly keys: EntityKeys;
  /** Entities pinned by the configuration (`p2p.trusted-entities`, `--trust-entity`). */
  readonly trusted?: readonly { readonly name: string; readonly publicKey: string }[] | undefined;
  /** `dataDir/<network>`: the private state lives in `private/<entity>.sqlite` there. */
  readonly networkDir: string;
  /** The peers this node is connected to now. */
  readonly peers: () => readonly PeerAddress[];
  /**
   * A peer this node asked lied about an entity (announced a pinned entity
   * with another key, or answered an envelope without the entity's receipt):
   * the peer network penalises that connection.
   */
  readonly penalize?: ((address: PeerAddress, reason: string) => void) | undefined;
  readonly log?: PrivateLog | undefined;
  /** The node's clock, µs (the `block-time` a private command runs at, envelope times). */
  readonly now?: (() => number) | undefined;
  readonly nativeBinding?: string | undefined;
  /** Request timeout towards peers, ms (default 10,000). */
  readonly timeoutMs?: number | undefined;
  /** How requests reach a peer (default `fetch`). */
  readonly fetch?: PeerFetch | undefined;
};

/** What is encrypted: the command as submitted, its step's time and the sender's party chain before it. */
type Sealed = { readonly command: unknown; readonly time: number; readonly parties: PartyView };

/** This node's entity as the app and `weft node` show it. */
export type EntityIdentity = {
  readonly entity: string | null;
  readonly publicKey: string;
  readonly fingerprint: string;
};

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function readSealed(plaintext: Uint8Array): Sealed {
  let sealed: Partial<Sealed>;
  try {
    sealed = JSON.parse(new TextDecoder().decode(plaintext)) as Partial<Sealed>;
  } catch (e) {
    throw badEnvelope("ciphertext", `the plaintext is not JSON: ${messageOf(e)}`);
  }
  if (typeof sealed !== "object" || sealed === null) {
    throw badEnvelope("ciphertext", "the plaintext is not {command, time, parties}");
  }
  const { time, parties } = sealed;
  if (typeof time !== "number" || !Number.isSafeInteger(time) || time < 0) {
    throw badEnvelope("ciphertext", "time: expected µs since the UNIX epoch");
  }
  if (
    typeof parties !== "object" ||
    parties === null ||
    !Number.isSafeInteger(parties.steps) ||
    parties.steps < 0 ||
    !isHashText(parties.digest)
  ) {
    throw badEnvelope("ciphertext", "parties: expected {steps, digest}");
  }
  return { command: sealed.command, time, parties };
}

export class PrivateService {
  readonly version: NetworkVersion;
  readonly entity: string | undefined;
  readonly directory: EntityDirectory;
  /** The entities this node trusts, pinned to their keys. */
  readonly trust: TrustedEntities;
  readonly #keys: EntityKeys;
  readonly #state: PrivateState | undefined;
  readonly #log: PrivateLog | undefined;
  readonly #now: () => number;
  readonly #penalize: ((address: PeerAddress, reason: string) => void) | undefined;
  readonly #clients = new Map<string, PrivatePeerClient>();

  /**
   * @throws {PrivateError} PRIVATE_BAD_TRUSTED_ENTITY, PRIVATE_TRUST_FILE_UNREADABLE (start-up).
   */
  constructor(options: PrivateServiceOptions) {
    this.version = options.version;
    this.entity = options.entity;
    this.#keys = options.keys;
    this.#log = options.log;
    this.#now = options.now ?? (() => Date.now() * 1000);
    this.#penalize = options.penalize;
    this.trust = new TrustedEntities({
      configured: options.trusted ?? [],
      networkDir: options.networkDir,
      self: options.entity,
      now: () => Math.floor(this.#now() / 1000),
    });
    this.#state =
      options.entity === undefined
        ? undefined
        : PrivateState.open(options.networkDir, options.entity, options.nativeBinding);
    const timeoutMs = options.timeoutMs ?? 10_000;
    this.directory = new EntityDirectory({
      peers: options.peers,
      pinned: (entity) => this.trust.keyOf(entity),
      onFalseKey: (address, reason) => this.#misbehaved(address, reason),
      client: (address) => {
        const key = peerKey(address);
        let c = this.#clients.get(key);
        if (c === undefined) {
          // A TLS peer is only talked to once its certificate has the fingerprint it is named by.
          const fetcher = address.id === undefined ? options.fetch : pinnedFetch(address.id);
          c = new PrivatePeerClient(address, this.version.name, timeoutMs, fetcher);
          this.#clients.set(key, c);
        }
        return c;
      },
    });
  }

  close(): void {
    this.#state?.close();
  }

  #misbehaved(address: PeerAddress, reason: string): void {
    this.#log?.warn(`p2p: private: peer ${peerKey(address)} ${reason}`);
    this.#penalize?.(address, `/private: ${reason}`);
  }

  /** `GET {base_url}/private/entity`: what this node announces to peers. */
  announced(): { entity: string | null; publicKey: string } {
    return { entity: this.entity ?? null, publicKey: entityKeyText(this.#keys.publicKey) };
  }

  /** This node's entity, public identity and its fingerprint. */
  identity(): EntityIdentity {
    return { ...this.announced(), fingerprint: entityFingerprint(this.#keys.publicKey) };
  }

  /** The private state's connection, when this node has an entity (backups copy it). */
  get stateDatabase(): { readonly file: string; readonly db: SqlDatabase } | undefined {
    if (this.#state === undefined || this.entity === undefined) return undefined;
    return { file: `private/${this.entity}.sqlite`, db: this.#state.db };
  }

  /** Each party set's newest step and digest, and the comparisons with the other parties. */
  partyChains(): { heads: PartyHead[]; checks: PartyCheck[] } {
    return this.#state?.partyChains() ?? { heads: [], checks: [] };
  }

  #ownState(): PrivateState {
    if (this.#state === undefined || this.entity === undefined) {
      throw new PrivateError(
        { code: PrivateErrorCode.NoEntity },
        "private execution needs an entity name for this node: start it with --entity NAME (p2p.entity) and peers that announce the addressed entities",
      );
    }
    return this.#state;
  }

  #requireChain(chainId: number, field: string): void {
    if (!this.version.chainIds.includes(chainId)) {
      throw badEnvelope(field, `chain ${chainId} is not a chain of network ${this.version.name}`);
    }
  }

  #noteCheck(check: PartyCheck): void {
    if (check.result === "in-step") return;
    this.#log?.warn(
      `p2p: private: chain ${check.chainId}, parties ${check.parties}: ${check.entity} states ${check.theirSteps} steps, this node has ${check.ourSteps}: ${check.result === "behind" ? "this node misses steps" : "their histories differ (diverged)"}`,
    );
  }

  /** The holders of each addressed entity, refusing unpinned entities and entities no holder announces. */
  async #holders(others: readonly string[]): Promise<Map<string, EntityHolder[]>> {
    const untrusted = others.filter((e) => this.trust.keyOf(e) === undefined);
    if (untrusted.length > 0) {
      throw new PrivateError(
        { code: PrivateErrorCode.UntrustedEntity, entities: untrusted },
        `cmd.meta.address.to: this node does not trust ${untrusted.map((e) => JSON.stringify(e)).join(", ")}: pin each entity's public key first (--trust-entity NAME=KEY, p2p.trusted-entities, or "Trust an entity" on the Node page)`,
      );
    }
    if (others.length === 0) return new Map();
    const { holders, falseKeys } = await this.directory.holders(others);
    const unknown = others.filter((e) => (holders.get(e) ?? []).length === 0);
    if (unknown.length > 0) {
      const known = this.directory.knownEntities();
      const lying = falseKeys.filter((f) => unknown.includes(f.entity));
      throw new PrivateError(
        { code: PrivateErrorCode.UnknownEntity, entities: unknown },
        `cmd.meta.address.to: no peer of this node announces ${unknown.map((e) => JSON.stringify(e)).join(", ")} with its pinned key (entities its peers announce: ${known.length === 0 ? "none" : known.join(", ")}${lying.length === 0 ? "" : `; announced with another key by ${lying.map((f) => `${f.peer} (${f.entity})`).join(", ")}`})`,
      );
    }
    return holders;
  }

  /**
   * `/private`: runs the command here, then delivers it to every addressed
   * entity's node.
   * @throws {CommandError} CMD_* for a malformed or unsigned command.
   * @throws {PrivateError} PRIVATE_NO_ENTITY, PRIVATE_NOT_SENDER,
   *   PRIVATE_UNTRUSTED_ENTITY, PRIVATE_UNKNOWN_ENTITY (400);
   *   PRIVATE_DELIVERY_FAILED (502) when no holder of an addressed entity
   *   took it with the entity's receipt (the others ran it; sending it again
   *   runs it only where it did not run).
   */
  async send(chainId: number, body: unknown): Promise<{ requestKeys: string[] }> {
    const command = readPrivateCommand(body, this.version.name);
    const state = this.#ownState();
    const entity = state.entity;
    if (command.address.from !== entity) {
      throw new PrivateError(
        { code: PrivateErrorCode.NotSender, from: command.address.from, entity },
        `cmd.meta.address.from: this node is entity ${JSON.stringify(entity)}, the command is from ${JSON.stringify(command.address.from)}; send it to the sender's own node`,
      );
    }
    const others = [...new Set(command.address.to)].filter((e) => e !== entity);
    const holders = await this.#holders(others);
    const outcome = state.execute(chainId, command, this.#now());
    const sealed: Sealed = {
      command: command.wire,
      time: outcome.timeMicros,
      parties: outcome.before,
    };
    const plaintext = new TextEncoder().encode(JSON.stringify(sealed));
    const failures: { entity: string; peer: string; reason: string }[] = [];
    const reached = new Set<string>();
    await Promise.all(
      others.flatMap((to) =>
        (holders.get(to) ?? []).map(async (h) => {
          const envelope = sealEnvelope(
            plaintext,
            h.publicKey,
            {
              network: this.version.name,
              chainId,
              from: entity,
              to,
              id: newEnvelopeId(),
              sentAt: this.#now(),
            },
            this.#keys,
          );
          try {
            const receipt = this.#receiptOf(await h.peer.deliver(envelope), envelope, h, command);
            reached.add(to);
            this.#noteCheck(
              state.compare(
                chainId,
                outcome.parties,
                to,
                receipt.parties,
                Math.floor(this.#now() / 1000),
              ),
            );
          } catch (e) {
            if (!isNodeError(e)) throw e;
            failures.push({ entity: to, peer: h.peer.key, reason: e.message });
          }
        }),
      ),
    );
    plaintext.fill(0);
    this.#log?.info(
      `p2p: private: ${command.hash} on chain ${chainId} sent to ${others.length === 0 ? "no other entity" : others.join(", ")}`,
    );
    const missed = failures.filter((f) => !reached.has(f.entity));
    if (missed.length > 0) {
      throw new PrivateError(
        { code: PrivateErrorCode.DeliveryFailed, failures: missed },
        `private command ${command.hash} was not delivered to ${missed.map((f) => `${f.entity} at ${f.peer} (${f.reason})`).join("; ")}; it ran on this node and the other addressed nodes; send it again to retry (a node runs it once)`,
      );
    }
    return { requestKeys: [command.hash] };
  }

  /**
   * The receipt in a holder's answer, checked against the entity's pinned
   * key; a holder that answers without it is penalised.
   * @throws {PrivateError} PRIVATE_DELIVERY_FAILED-style reason (the caller collects it).
   */
  #receiptOf(
    answer: unknown,
    envelope: Envelope,
    holder: EntityHolder,
    command: PrivateCommand,
  ): Receipt {
    const read = readReceipt(answer);
    const reason =
      typeof read === "string"
        ? read
        : read.requestKey !== command.hash
          ? `the receipt names ${read.requestKey}, not ${command.hash}`
          : !isReceiptOf(read, envelope, holder.publicKey)
            ? `the receipt is not signed by ${JSON.stringify(envelope.to)}'s pinned key`
            : undefined;
    if (reason === undefined) return read as Receipt;
    this.#misbehaved(
      holder.peer.address,
      `took an envelope for ${JSON.stringify(envelope.to)} without its receipt: ${reason}`,
    );
    throw new PrivateError(
      {
        code: PrivateErrorCode.DeliveryFailed,
        failures: [{ entity: envelope.to, peer: holder.peer.key, reason }],
      },
      `no receipt from ${JSON.stringify(envelope.to)}: ${reason}`,
    );
  }

  /**
   * `POST {base_url}/private/envelope`: a private command sealed for this
   * node's entity, from an entity it trusts; it runs on the private state.
   * Answers the signed receipt.
   * @throws {PrivateError} PRIVATE_BAD_ENVELOPE, PRIVATE_NO_ENTITY,
   *   PRIVATE_NOT_ADDRESSED, PRIVATE_UNTRUSTED_SENDER, PRIVATE_BAD_SIGNATURE,
   *   PRIVATE_REPLAYED, PRIVATE_UNDECRYPTABLE, PRIVATE_NOT_SENDER.
   * @throws {CommandError} CMD_* when the command inside does not pass the checks.
   */
  receive(body: unknown): Receipt {
    const envelope = parseEnvelope(body);
    if (envelope.network !== this.version.name) {
      throw badEnvelope(
        "network",
        `this node runs ${this.version.name}, the envelope is for ${envelope.network}`,
      );
    }
    this.#requireChain(envelope.chainId, "chainId");
    if (this.entity === undefined || envelope.to !== this.entity) {
      throw new PrivateError(
        { code: PrivateErrorCode.NotAddressed, entity: this.entity ?? null, to: envelope.to },
        `to: the envelope is for entity ${JSON.stringify(envelope.to)}, this node is ${this.entity === undefined ? "no entity" : JSON.stringify(this.entity)}`,
      );
    }
    const state = this.#ownState();
    const { from, id, sentAt } = envelope;
    const senderKey = from === state.entity ? undefined : this.trust.keyOf(from);
    if (senderKey === undefined) {
      throw new PrivateError(
        { code: PrivateErrorCode.UntrustedSender, from },
        `from: this node does not trust entity ${JSON.stringify(from)} (no key pinned for it)`,
      );
    }
    if (!isSignedBy(envelope, senderKey, this.#keys.publicKey)) {
      throw new PrivateError(
        { code: PrivateErrorCode.BadSignature, from },
        `signature: the envelope is not signed by the pinned key of ${JSON.stringify(from)} for this node's key`,
      );
    }
    const now = this.#now();
    const replayed = (reason: string) =>
      new PrivateError(
        { code: PrivateErrorCode.Replayed, from, id, reason },
        `envelope ${id} from ${JSON.stringify(from)}: ${reason}`,
      );
    if (sentAt < now - REPLAY_WINDOW_MICROS) {
      throw replayed(
        `sent more than ${REPLAY_WINDOW_MICROS / 60_000_000} minutes ago (envelopes are accepted within that window; the sender seals a new one to retry)`,
      );
    }
    if (sentAt > now + CLOCK_SKEW_MICROS) {
      throw badEnvelope(
        "sentAt",
        `more than ${CLOCK_SKEW_MICROS / 60_000_000} minutes ahead of this node's clock`,
      );
    }
    if (state.hasEnvelope(from, id)) throw replayed("already delivered (a replay)");
    const plaintext = openEnvelope(envelope, this.#keys);
    let sealed: Sealed;
    try {
      sealed = readSealed(plaintext);
    } finally {
      plaintext.fill(0);
    }
    const command: PrivateCommand = readPrivateCommand(sealed.command, this.version.name);
    if (command.address.from !== from) {
      throw new PrivateError(
        { code: PrivateErrorCode.NotSender, from: command.address.from, entity: from },
        `cmd.meta.address.from: the command says it is from ${JSON.stringify(command.address.from)}, the envelope is signed by ${JSON.stringify(from)}`,
      );
    }
    if (!command.address.to.includes(state.entity)) {
      throw new PrivateError(
        { code: PrivateErrorCode.NotAddressed, entity: state.entity, to: envelope.to },
        `cmd.meta.address.to: the command is not addressed to ${JSON.stringify(state.entity)}`,
      );
    }
    const { check, outcome } = state.transaction(() => {
      state.recordEnvelope(from, id, sentAt, now - REPLAY_WINDOW_MICROS);
      const check = state.compare(
        envelope.chainId,
        partiesOf(command.address),
        from,
        sealed.parties,
        Math.floor(now / 1000),
      );
      return { check, outcome: state.execute(envelope.chainId, command, sealed.time) };
    });
    this.#log?.info(
      `p2p: private: ran ${command.hash} from ${command.address.from} on chain ${envelope.chainId}`,
    );
    this.#noteCheck(check);
    return signReceipt(this.#keys, envelope, command.hash, outcome.after);
  }

  /** Results of private commands this node ran on `chainId`, by request key. */
  poll(chainId: number, requestKeys: readonly string[]): Map<string, string> {
    const out = new Map<string, string>();
    if (this.#state === undefined) return out;
    for (const k of requestKeys) {
      const r = this.#state.result(chainId, k);
      if (r !== undefined) out.set(k, r);
    }
    return out;
  }
}
