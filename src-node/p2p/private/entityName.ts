/**
 * What an entity name is (docs/private.md): letters, digits, `.`, `_` and
 * `-`, at most 64 characters, starting with a letter or digit — the rule of
 * `p2p.entity` (config/nodeOptions.ts), applied to every name a peer, an
 * envelope or the app gives.
 * @module
 */

const ENTITY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function isEntityName(value: unknown): value is string {
  return typeof value === "string" && ENTITY_NAME.test(value);
}
