/**
 * This node's `/private` entity and the entities it trusts, from the app-private routes
 * `/app/api/private` (docs/private.md "The Node page"): its entity name, public key and
 * fingerprint; each pinned entity (name, key, fingerprint, pinned by the configuration or
 * in the app); each party set's private chain and whether the other parties are in step.
 * @module
 */
import { array, boolean, type Decoded, decode, natural, record, reject, string } from "./decode.ts";

export type EntityPin = {
  readonly name: string;
  readonly publicKey: string;
  readonly fingerprint: string;
  readonly source: "configuration" | "app";
  /** ISO 8601; null for a configured pin. */
  readonly addedAt: string | null;
};

/** A pin as "Check key" shows it before it is made. */
export type PinCheck = EntityPin & { readonly pinned: boolean };

export type PartyCheck = {
  readonly entity: string;
  readonly at: string;
  readonly result: "in-step" | "behind" | "diverged";
  readonly theirSteps: number;
  readonly ourSteps: number;
};

export type PrivateChain = {
  readonly chainId: number;
  readonly parties: readonly string[];
  readonly steps: number;
  readonly digest: string;
  readonly checks: readonly PartyCheck[];
};

export type PrivateEntities = {
  readonly entity: string | null;
  readonly publicKey: string;
  readonly fingerprint: string;
  readonly trusted: readonly EntityPin[];
  readonly chains: readonly PrivateChain[];
  readonly diverged: boolean;
};

function pinOf(x: unknown, path: string): EntityPin {
  const o = record(x, path);
  const source = string(o.source, `${path}.source`);
  if (source !== "configuration" && source !== "app") {
    return reject(`${path}.source`, "configuration or app");
  }
  return {
    name: string(o.name, `${path}.name`),
    publicKey: string(o.publicKey, `${path}.publicKey`),
    fingerprint: string(o.fingerprint, `${path}.fingerprint`),
    source,
    addedAt: o.addedAt === null ? null : string(o.addedAt, `${path}.addedAt`),
  };
}

function checkOf(x: unknown, path: string): PartyCheck {
  const o = record(x, path);
  const result = string(o.result, `${path}.result`);
  if (result !== "in-step" && result !== "behind" && result !== "diverged") {
    return reject(`${path}.result`, "in-step, behind or diverged");
  }
  return {
    entity: string(o.entity, `${path}.entity`),
    at: string(o.at, `${path}.at`),
    result,
    theirSteps: natural(o.theirSteps, `${path}.theirSteps`),
    ourSteps: natural(o.ourSteps, `${path}.ourSteps`),
  };
}

export function parsePrivateEntities(raw: unknown): Decoded<PrivateEntities> {
  return decode(raw, (x) => {
    const o = record(x, "private");
    return {
      entity: o.entity === null ? null : string(o.entity, "entity"),
      publicKey: string(o.publicKey, "publicKey"),
      fingerprint: string(o.fingerprint, "fingerprint"),
      trusted: array(o.trusted, "trusted").map((p, i) => pinOf(p, `trusted[${i}]`)),
      chains: array(o.chains, "chains").map((c, i) => {
        const r = record(c, `chains[${i}]`);
        return {
          chainId: natural(r.chainId, `chains[${i}].chainId`),
          parties: array(r.parties, `chains[${i}].parties`).map((p, j) =>
            string(p, `chains[${i}].parties[${j}]`),
          ),
          steps: natural(r.steps, `chains[${i}].steps`),
          digest: string(r.digest, `chains[${i}].digest`),
          checks: array(r.checks, `chains[${i}].checks`).map((k, j) =>
            checkOf(k, `chains[${i}].checks[${j}]`),
          ),
        };
      }),
      diverged: boolean(o.diverged, "diverged"),
    };
  });
}

export function parsePin(raw: unknown): Decoded<EntityPin> {
  return decode(raw, (x) => pinOf(x, "pin"));
}

export function parsePinCheck(raw: unknown): Decoded<PinCheck> {
  return decode(raw, (x) => ({
    ...pinOf(x, "pin"),
    pinned: boolean(record(x, "pin").pinned, "pin.pinned"),
  }));
}
