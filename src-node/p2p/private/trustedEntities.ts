/**
 * The entities this node trusts, each pinned to its public identity
 * (docs/private.md "Entities are keys"). A node knows another entity only
 * from its own configuration (`--trust-entity NAME=KEY`,
 * `p2p.trusted-entities`) or from the app's explicit "trust this entity"
 * action (`/app/api/private/trusted`), never from what a peer announces:
 * envelopes are sealed only to a pinned key and accepted only when signed by
 * the pinned key of their sender.
 *
 * The app's pins live in `dataDir/<network>/private/trusted-entities.json`
 * (0600, replaced atomically, written at the first start so a backup always
 * finds it): `{"version": 1, "entities": [{"name", "publicKey", "addedAt"}]}`.
 * A configured pin wins: the app cannot add, change or remove one. Changing
 * an app pin's key (the entity rotated its key) is removing it and adding
 * the new key, both explicit.
 * @module
 */
import { dirname, join } from "node:path";
import { readFileIfExists, writeFileAtomic } from "../../store/atomicFile.ts";
import { makePrivateDir, makePrivateFile } from "../../store/privateFiles.ts";
import { entityFingerprint, entityKeyText, readEntityPublicKey } from "./entityIdentity.ts";
import { isEntityName } from "./entityName.ts";
import { PrivateError, PrivateErrorCode } from "./errors.ts";

/** Most entities the app may pin (the file stays small). */
export const MAX_APP_PINS = 1000;

export type TrustSource = "configuration" | "app";

/** A pinned entity as the app and the API show it. */
export type TrustedEntityView = {
  readonly name: string;
  readonly publicKey: string;
  readonly fingerprint: string;
  readonly source: TrustSource;
  /** ISO 8601; null for a configured pin. */
  readonly addedAt: string | null;
};

type Pin = { readonly key: Uint8Array; readonly view: TrustedEntityView };

/** `dataDir/<network>/private/trusted-entities.json` */
export function trustFilePath(networkDir: string): string {
  return join(networkDir, "private", "trusted-entities.json");
}

function badTrusted(field: string, reason: string): PrivateError {
  return new PrivateError(
    { code: PrivateErrorCode.BadTrustedEntity, field, reason },
    `${field}: ${reason}`,
  );
}

function conflict(name: string, reason: string): PrivateError {
  return new PrivateError(
    { code: PrivateErrorCode.TrustConflict, name, reason },
    `${JSON.stringify(name)}: ${reason}`,
  );
}

function checkedName(name: unknown, field: string): string {
  if (!isEntityName(name)) {
    throw badTrusted(
      field,
      "expected an entity name: letters, digits, '.', '_' or '-' (at most 64, starting with a letter or digit)",
    );
  }
  return name;
}

function checkedKey(text: unknown, field: string): Uint8Array {
  const read = readEntityPublicKey(text);
  if (!read.ok) throw badTrusted(field, read.error);
  return read.value;
}

function pin(name: string, key: Uint8Array, source: TrustSource, addedAt: string | null): Pin {
  return {
    key,
    view: {
      name,
      publicKey: entityKeyText(key),
      fingerprint: entityFingerprint(key),
      source,
      addedAt,
    },
  };
}

export type TrustedEntitiesOptions = {
  /** Pins from the configuration, `NAME` → key text (checked here). */
  readonly configured: readonly { readonly name: string; readonly publicKey: string }[];
  /** `dataDir/<network>` */
  readonly networkDir: string;
  /** This node's own entity, which is not pinned (it is this node). */
  readonly self?: string | undefined;
  readonly now?: (() => number) | undefined;
};

export class TrustedEntities {
  readonly file: string;
  readonly #pins = new Map<string, Pin>();
  readonly #self: string | undefined;
  readonly #now: () => number;

  /**
   * Reads the configured pins and the app's file (written empty when missing).
   * @throws {PrivateError} PRIVATE_BAD_TRUSTED_ENTITY for a configured pin that
   *   is not a name and a key (or names this node's own entity);
   *   PRIVATE_TRUST_FILE_UNREADABLE for a file that is not a list of pins
   *   (never replaced silently).
   */
  constructor(options: TrustedEntitiesOptions) {
    this.file = trustFilePath(options.networkDir);
    this.#self = options.self;
    this.#now = options.now ?? Date.now;
    for (const c of options.configured) {
      const field = `p2p.trusted-entities.${c.name}`;
      const name = checkedName(c.name, field);
      if (name === this.#self) throw badTrusted(field, "is this node's own entity");
      this.#pins.set(name, pin(name, checkedKey(c.publicKey, field), "configuration", null));
    }
    const text = readFileIfExists(this.file);
    if (text === undefined) {
      this.#save();
      return;
    }
    // Tightened when an older release or a copy left them readable by others (privateFiles.ts).
    makePrivateDir(dirname(this.file));
    makePrivateFile(this.file);
    for (const e of this.#parseFile(text)) {
      // A configured pin wins over one the app stored before.
      if (!this.#pins.has(e.name) && e.name !== this.#self) {
        this.#pins.set(e.name, pin(e.name, e.key, "app", e.addedAt));
      }
    }
  }

  #parseFile(text: string): { name: string; key: Uint8Array; addedAt: string }[] {
    const unreadable = (reason: string) =>
      new PrivateError(
        { code: PrivateErrorCode.TrustFileUnreadable, path: this.file, reason },
        `${this.file}: ${reason} (fix or move the file away; the entities it pinned are then no longer trusted)`,
      );
    let o: { version?: unknown; entities?: unknown };
    try {
      o = JSON.parse(text) as typeof o;
    } catch {
      throw unreadable("not JSON");
    }
    if (o === null || typeof o !== "object" || o.version !== 1 || !Array.isArray(o.entities)) {
      throw unreadable('expected {"version": 1, "entities": [...]}');
    }
    if (o.entities.length > MAX_APP_PINS) throw unreadable(`more than ${MAX_APP_PINS} entities`);
    return o.entities.map((e: unknown, i) => {
      const r = (typeof e === "object" && e !== null ? e : {}) as Record<string, unknown>;
      try {
        const name = checkedName(r.name, `entities[${i}].name`);
        const key = checkedKey(r.publicKey, `entities[${i}].publicKey`);
        if (typeof r.addedAt !== "string" || Number.isNaN(Date.parse(r.addedAt))) {
          throw badTrusted(`entities[${i}].addedAt`, "expected an ISO 8601 time");
        }
        return { name, key, addedAt: r.addedAt };
      } catch (err) {
        if (err instanceof PrivateError) throw unreadable(err.message);
        throw err;
      }
    });
  }

  #save(): void {
    const entities = [...this.#pins.values()]
      .filter((p) => p.view.source === "app")
      .map((p) => ({ name: p.view.name, publicKey: p.view.publicKey, addedAt: p.view.addedAt }));
    writeFileAtomic(this.file, `${JSON.stringify({ version: 1, entities }, null, 2)}\n`);
  }

  /** The pinned key of `name`, or undefined when this node does not trust it. */
  keyOf(name: string): Uint8Array | undefined {
    return this.#pins.get(name)?.key;
  }

  /** Every pin, by name. */
  list(): TrustedEntityView[] {
    return [...this.#pins.values()]
      .map((p) => p.view)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * What pinning `name` to `publicKey` from the app would store, checked, without storing it
   * (the app shows the fingerprint before the user confirms).
   * @throws {PrivateError} PRIVATE_BAD_TRUSTED_ENTITY (name or key), PRIVATE_TRUST_CONFLICT
   *   (this node's own entity, a configured pin, a pin to another key, too many pins).
   */
  check(name: unknown, publicKey: unknown): TrustedEntityView & { readonly pinned: boolean } {
    const n = checkedName(name, "name");
    const key = checkedKey(publicKey, "publicKey");
    const text = entityKeyText(key);
    if (n === this.#self) throw conflict(n, "is this node's own entity");
    const existing = this.#pins.get(n);
    if (existing?.view.source === "configuration" && existing.view.publicKey !== text) {
      throw conflict(
        n,
        `is pinned by this node's configuration to another key (fingerprint ${existing.view.fingerprint}); change it there`,
      );
    }
    if (existing !== undefined && existing.view.publicKey !== text) {
      throw conflict(
        n,
        `is already pinned to another key (fingerprint ${existing.view.fingerprint}); remove that pin first if the entity changed its key`,
      );
    }
    if (existing !== undefined) return { ...existing.view, pinned: true };
    if (this.#pins.size >= MAX_APP_PINS) {
      throw conflict(n, `this node already trusts ${MAX_APP_PINS} entities`);
    }
    return { ...pin(n, key, "app", null).view, pinned: false };
  }

  /**
   * Pins `name` to `publicKey` (the app's "trust this entity"); pinning the same key again
   * changes nothing.
   * @throws {PrivateError} as {@link check}.
   */
  add(name: unknown, publicKey: unknown): TrustedEntityView {
    const checked = this.check(name, publicKey);
    if (checked.pinned) return this.#pins.get(checked.name)?.view as TrustedEntityView;
    const p = pin(
      checked.name,
      checkedKey(checked.publicKey, "publicKey"),
      "app",
      new Date(this.#now()).toISOString(),
    );
    this.#pins.set(checked.name, p);
    try {
      this.#save();
    } catch (e) {
      this.#pins.delete(checked.name);
      throw e;
    }
    return p.view;
  }

  /**
   * Removes an app pin.
   * @throws {PrivateError} PRIVATE_NOT_TRUSTED (no such pin), PRIVATE_TRUST_CONFLICT (a
   *   configured pin: removed from the configuration only).
   */
  remove(name: string): void {
    const existing = this.#pins.get(name);
    if (existing === undefined) {
      throw new PrivateError(
        { code: PrivateErrorCode.NotTrusted, name },
        `${JSON.stringify(name)} is not a trusted entity of this node`,
      );
    }
    if (existing.view.source === "configuration") {
      throw conflict(name, "is pinned by this node's configuration; remove it there");
    }
    this.#pins.delete(name);
    try {
      this.#save();
    } catch (e) {
      this.#pins.set(name, existing);
      throw e;
    }
  }
}
