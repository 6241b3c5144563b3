/**
 * `PrivateService`: `/private` between addressed nodes (docs/private.md).
 * - `send` (`POST …/pact/api/v1/private`): reads the command in full
 *   (privateCommand.ts; bad input is a 400 naming the field), checks that
 *   this node has an entity and is the command's `from`, finds the peers
 *   announcing each addressed entity (entityDirectory.ts; an entity no
 *   peer announces is a 400 naming it), seals the command for each of them
 *   (sealedEnvelope.ts: a fresh ephemeral key and nonce per envelope) and
 *   delivers it; then runs it on this node's own private state (the sender
 *   is a party). Answers `{"requestKeys": [key]}`.
 * - `receive` (`POST {base_url}/private/envelope`, peer-only): opens an
 *   envelope meant for this node's entity, reads and checks the command
 *   again (signatures included), and runs it on the private state.
 * - `poll`: results of private commands this node ran, for `/poll`.
 * The plain command never goes to the mempool, a block, a log line or a
 * node that is not addressed: a peer that is not addressed gets nothing.
 * @module
 */
import type { NetworkVersion } from "../../chain/networkVersion.ts";
import { base64UrlEncode } from "../../encoding/base64url.ts";
import { isNodeError } from "../../errors/nodeError.ts";
import { type PeerAddress, peerKey } from "../peerAddress.ts";
import { pinnedFetch } from "../tls/pinnedFetch.ts";
import { EntityDirectory, type EntityHolder } from "./entityDirectory.ts";
import type { EntityKeys } from "./entityKeys.ts";
import { badEnvelope, PrivateError, PrivateErrorCode } from "./errors.ts";
import { type PrivateCommand, readPrivateCommand } from "./privateCommand.ts";
import { type PeerFetch, PrivatePeerClient } from "./privatePeerClient.ts";
import { PrivateState } from "./privateState.ts";
import { openEnvelope, parseEnvelope, sealEnvelope } from "./sealedEnvelope.ts";

export type PrivateLog = {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
};

export type PrivateServiceOptions = {
  readonly version: NetworkVersion;
  /** This node's entity name (`p2p.entity`); absent: /private is refused. */
  readonly entity?: string | undefined;
  readonly keys: EntityKeys;
  /** `dataDir/<network>`: the private state lives in `private/<entity>.sqlite` there. */
  readonly networkDir: string;
  /** The peers this node is connected to now. */
  readonly peers: () => readonly PeerAddress[];
  readonly log?: PrivateLog | undefined;
  /** The node's clock, µs (the `block-time` a private command runs at). */
  readonly now?: (() => number) | undefined;
  readonly nativeBinding?: string | undefined;
  /** Request timeout towards peers, ms (default 10,000). */
  readonly timeoutMs?: number | undefined;
  /** How requests reach a peer (default `fetch`). */
  readonly fetch?: PeerFetch | undefined;
};

/** What is encrypted: the command as submitted, and the sender's time. */
type Sealed = { readonly command: unknown; readonly time: number };

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class PrivateService {
  readonly version: NetworkVersion;
  readonly entity: string | undefined;
  readonly directory: EntityDirectory;
  readonly #keys: EntityKeys;
  readonly #state: PrivateState | undefined;
  readonly #log: PrivateLog | undefined;
  readonly #now: () => number;
  readonly #clients = new Map<string, PrivatePeerClient>();

  constructor(options: PrivateServiceOptions) {
    this.version = options.version;
    this.entity = options.entity;
    this.#keys = options.keys;
    this.#log = options.log;
    this.#now = options.now ?? (() => Date.now() * 1000);
    this.#state =
      options.entity === undefined
        ? undefined
        : PrivateState.open(options.networkDir, options.entity, options.nativeBinding);
    const timeoutMs = options.timeoutMs ?? 10_000;
    this.directory = new EntityDirectory({
      peers: options.peers,
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

  /** `GET {base_url}/private/entity`: what this node announces to peers. */
  announced(): { entity: string | null; publicKey: string } {
    return { entity: this.entity ?? null, publicKey: base64UrlEncode(this.#keys.publicKey) };
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

  /**
   * `/private`: delivers the command to every addressed entity's node, then
   * runs it here.
   * @throws {CommandError} CMD_* for a malformed or unsigned command.
   * @throws {PrivateError} PRIVATE_NO_ENTITY, PRIVATE_NOT_SENDER,
   *   PRIVATE_UNKNOWN_ENTITY (400); PRIVATE_DELIVERY_FAILED (502) when an
   *   addressed node did not take it (the ones that did ran it; sending it
   *   again runs it only where it did not run).
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
    const holders: Map<string, EntityHolder[]> =
      others.length === 0 ? new Map() : await this.directory.holders(others);
    const unknown = others.filter((e) => (holders.get(e) ?? []).length === 0);
    if (unknown.length > 0) {
      const known = this.directory.knownEntities();
      throw new PrivateError(
        { code: PrivateErrorCode.UnknownEntity, entities: unknown },
        `cmd.meta.address.to: no peer of this node announces ${unknown.map((e) => JSON.stringify(e)).join(", ")} (entities its peers announce: ${known.length === 0 ? "none" : known.join(", ")})`,
      );
    }
    const time = this.#now();
    const sealed: Sealed = { command: command.wire, time };
    const plaintext = new TextEncoder().encode(JSON.stringify(sealed));
    const failures: { entity: string; peer: string; reason: string }[] = [];
    await Promise.all(
      others.flatMap((to) =>
        (holders.get(to) ?? []).map(async (h) => {
          const envelope = sealEnvelope(plaintext, h.publicKey, {
            network: this.version.name,
            chainId,
            to,
          });
          try {
            await h.peer.deliver(envelope);
          } catch (e) {
            if (!isNodeError(e)) throw e;
            failures.push({ entity: to, peer: h.peer.key, reason: e.message });
          }
        }),
      ),
    );
    plaintext.fill(0);
    state.execute(chainId, command, time);
    this.#log?.info(
      `p2p: private: ${command.hash} on chain ${chainId} sent to ${others.length === 0 ? "no other entity" : others.join(", ")}`,
    );
    if (failures.length > 0) {
      throw new PrivateError(
        { code: PrivateErrorCode.DeliveryFailed, failures },
        `private command ${command.hash} was not delivered to ${failures.map((f) => `${f.entity} at ${f.peer} (${f.reason})`).join("; ")}; it ran on this node and the other addressed nodes; send it again to retry (a node runs it once)`,
      );
    }
    return { requestKeys: [command.hash] };
  }

  /**
   * `POST {base_url}/private/envelope`: a peer delivers a private command
   * sealed for this node's entity; it runs on the private state.
   * @throws {PrivateError} PRIVATE_BAD_ENVELOPE, PRIVATE_NO_ENTITY,
   *   PRIVATE_NOT_ADDRESSED, PRIVATE_UNDECRYPTABLE.
   * @throws {CommandError} CMD_* when the command inside does not pass the checks.
   */
  receive(body: unknown): { requestKey: string } {
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
    const plaintext = openEnvelope(envelope, this.#keys.secretKey, this.#keys.publicKey);
    let sealed: Sealed;
    try {
      sealed = JSON.parse(new TextDecoder().decode(plaintext)) as Sealed;
    } catch (e) {
      throw badEnvelope("ciphertext", `the plaintext is not JSON: ${messageOf(e)}`);
    } finally {
      plaintext.fill(0);
    }
    if (typeof sealed !== "object" || sealed === null) {
      throw badEnvelope("ciphertext", "the plaintext is not {command, time}");
    }
    if (!Number.isSafeInteger(sealed.time) || sealed.time < 0) {
      throw badEnvelope("ciphertext", "time: expected µs since the UNIX epoch");
    }
    const command: PrivateCommand = readPrivateCommand(sealed.command, this.version.name);
    if (!command.address.to.includes(state.entity)) {
      throw new PrivateError(
        { code: PrivateErrorCode.NotAddressed, entity: state.entity, to: envelope.to },
        `cmd.meta.address.to: the command is not addressed to ${JSON.stringify(state.entity)}`,
      );
    }
    state.execute(envelope.chainId, command, sealed.time);
    this.#log?.info(
      `p2p: private: ran ${command.hash} from ${command.address.from} on chain ${envelope.chainId}`,
    );
    return { requestKey: command.hash };
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
