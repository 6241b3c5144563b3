/**
 * Header validation as pure functions (reference chainweb-api.md §4 "Related
 * header-validation rules", `BlockHeader/Validation.hs`). The caller looks up
 * the parent and the adjacent parents and passes the clock; nothing here
 * reads a database or the time.
 *
 * Rules, each failing with its own code:
 * - the header is not a genesis header (genesis headers are built, not received);
 * - block hash = Merkle root of the fields; feature flags 0;
 * - payload hash = the supplied payload's (when one is supplied);
 * - proof of work meets the target (unless the version does not check PoW);
 * - parent known and named by the header; height = parent + 1; same chain and version;
 * - adjacent chain set = the graph's at the parent's height; every adjacent
 *   parent known and named; adjacent parents braided (at the parent's height,
 *   and their links agree with the parent's);
 * - creation time after the parent's and every adjacent parent's, and not
 *   after `now` (CHAIN_BLOCK_IN_FUTURE: retry later, not fatal);
 * - epoch start, target and weight as computed.
 * @module
 */
import type { Hash32 } from "../encoding/hash32.ts";
import { computeBlockHash } from "./blockHash.ts";
import type { BlockHeader } from "./blockHeader.ts";
import { childWeight } from "./difficulty.ts";
import { nextEpochStart } from "./epoch.ts";
import { ChainError, ChainErrorCode, type HeaderRuleCode } from "./errors.ts";
import { isHeaderHashed } from "./hashedHere.ts";
import { headerAdjacentChains, isGenesisHeight } from "./networkVersion.ts";
import { nextTarget } from "./nextTarget.ts";
import { hasValidPow } from "./pow.ts";
import { versionByCode } from "./versions.ts";

export type HeaderValidationInput = {
  readonly header: BlockHeader;
  /** The header's parent, if the caller has it. */
  readonly parent: BlockHeader | undefined;
  /** The headers named by the header's adjacent parent hashes, by chain id. */
  readonly adjacentParents: ReadonlyMap<number, BlockHeader>;
  /** The validating node's clock, µs since the UNIX epoch. */
  readonly now: number;
  /** The payload hash of the payload that came with the header, when one did. */
  readonly payloadHash?: Hash32;
};

function failure(
  code: HeaderRuleCode | typeof ChainErrorCode.HashMismatch,
  field: string,
  expected: unknown,
  actual: unknown,
  message: string,
): ChainError {
  return new ChainError(
    { code, field, expected: String(expected), actual: String(actual) },
    `${field}: ${message} (expected ${String(expected)}, got ${String(actual)})`,
  );
}

/**
 * Every rule the header breaks, in the order above. Rules that need a
 * well-placed parent (height, chain, version) stop the later ones when broken.
 */
export function headerValidationFailures(input: HeaderValidationInput): ChainError[] {
  const { header: h, parent: p, now } = input;
  const version = versionByCode(h.versionCode);
  const out: ChainError[] = [];

  if (isGenesisHeight(version, h.chainId, h.height)) {
    return [
      failure(
        ChainErrorCode.GenesisNotValidated,
        "height",
        "a non-genesis height",
        h.height,
        "genesis headers are built from the version, never validated as received blocks",
      ),
    ];
  }
  // A header decoded here had its hash computed then (hashedHere.ts).
  const hash = isHeaderHashed(h) ? h.hash : computeBlockHash(h);
  if (hash !== h.hash)
    out.push(failure(ChainErrorCode.HashMismatch, "hash", hash, h.hash, "block hash"));
  if (h.featureFlags !== 0n) {
    out.push(
      failure(ChainErrorCode.BadFeatureFlags, "featureFlags", 0n, h.featureFlags, "feature flags"),
    );
  }
  if (input.payloadHash !== undefined && input.payloadHash !== h.payloadHash) {
    out.push(
      failure(
        ChainErrorCode.WrongPayloadHash,
        "payloadHash",
        input.payloadHash,
        h.payloadHash,
        "payload hash",
      ),
    );
  }
  if (version.checkPow && !hasValidPow(h)) {
    out.push(
      failure(ChainErrorCode.BadPow, "nonce", `pow ≤ ${h.target}`, "pow > target", "proof of work"),
    );
  }

  if (p === undefined) {
    out.push(
      failure(ChainErrorCode.ParentUnknown, "parent", h.parent, "unknown", "parent not available"),
    );
    return out;
  }
  if (p.hash !== h.parent) {
    out.push(failure(ChainErrorCode.ParentMismatch, "parent", h.parent, p.hash, "supplied parent"));
    return out;
  }
  const placement = out.length;
  if (h.height !== p.height + 1) {
    out.push(failure(ChainErrorCode.WrongHeight, "height", p.height + 1, h.height, "height"));
  }
  if (h.chainId !== p.chainId) {
    out.push(failure(ChainErrorCode.WrongChain, "chainId", p.chainId, h.chainId, "chain"));
  }
  if (h.versionCode !== p.versionCode) {
    out.push(
      failure(ChainErrorCode.WrongVersion, "versionCode", p.versionCode, h.versionCode, "version"),
    );
  }
  if (out.length > placement) return out;

  const expectedChains = headerAdjacentChains(version, h.chainId, h.height);
  const actualChains = h.adjacents.map((a) => a.chainId);
  if (expectedChains.join(",") !== actualChains.join(",")) {
    out.push(
      failure(
        ChainErrorCode.WrongAdjacentChains,
        "adjacents",
        `[${expectedChains}]`,
        `[${actualChains}]`,
        "adjacent chains",
      ),
    );
    return out;
  }

  const adjacentParents: BlockHeader[] = [];
  for (const a of h.adjacents) {
    const ap = input.adjacentParents.get(a.chainId);
    if (ap === undefined || ap.hash !== a.hash || ap.chainId !== a.chainId) {
      out.push(
        failure(
          ChainErrorCode.AdjacentParentUnknown,
          `adjacents.${a.chainId}`,
          a.hash,
          ap?.hash ?? "unknown",
          "adjacent parent",
        ),
      );
    } else {
      adjacentParents.push(ap);
    }
  }
  if (adjacentParents.length !== h.adjacents.length) return out;

  const braidingStart = out.length;
  const parentIsGenesis = isGenesisHeight(version, p.chainId, p.height);
  for (const ap of adjacentParents) {
    const field = `adjacents.${ap.chainId}`;
    if (ap.height !== p.height || ap.versionCode !== p.versionCode) {
      out.push(
        failure(ChainErrorCode.NotBraided, field, p.height, ap.height, "adjacent parent height"),
      );
      continue;
    }
    // Genesis headers carry genesis parent hashes, not links to their neighbours.
    if (parentIsGenesis || isGenesisHeight(version, ap.chainId, ap.height)) continue;
    const apToParentChain = ap.adjacents.find((x) => x.chainId === h.chainId);
    if (apToParentChain !== undefined && apToParentChain.hash !== p.parent) {
      out.push(
        failure(
          ChainErrorCode.NotBraided,
          field,
          p.parent,
          apToParentChain.hash,
          "adjacent parent's link to this chain",
        ),
      );
    }
    const parentToAp = p.adjacents.find((x) => x.chainId === ap.chainId);
    if (parentToAp !== undefined && parentToAp.hash !== ap.parent) {
      out.push(
        failure(
          ChainErrorCode.NotBraided,
          field,
          parentToAp.hash,
          ap.parent,
          "parent's link to that chain",
        ),
      );
    }
  }
  if (out.length > braidingStart) return out;

  const latest = Math.max(p.creationTime, ...adjacentParents.map((a) => a.creationTime));
  if (!(h.creationTime > latest)) {
    out.push(
      failure(
        ChainErrorCode.CreationTimeNotIncreasing,
        "creationTime",
        `> ${latest}`,
        h.creationTime,
        "creation time must be after the parent's and every adjacent parent's",
      ),
    );
  }
  if (h.creationTime > now) {
    out.push(
      failure(
        ChainErrorCode.BlockInFuture,
        "creationTime",
        `≤ ${now}`,
        h.creationTime,
        "block in the future",
      ),
    );
  }
  const epochStart = nextEpochStart(version, p);
  if (h.epochStart !== epochStart) {
    out.push(
      failure(
        ChainErrorCode.WrongEpochStart,
        "epochStart",
        epochStart,
        h.epochStart,
        "epoch start",
      ),
    );
  }
  const target = nextTarget(version, p, adjacentParents);
  if (h.target !== target) {
    out.push(failure(ChainErrorCode.WrongTarget, "target", target, h.target, "target"));
  }
  const weight = childWeight(p.weight, h.target);
  if (h.weight !== weight) {
    out.push(failure(ChainErrorCode.WrongWeight, "weight", weight, h.weight, "weight"));
  }
  return out;
}

/**
 * Validates a header.
 * @throws {ChainError} the first rule it breaks (see {@link headerValidationFailures}).
 */
export function validateHeader(input: HeaderValidationInput): void {
  const [first] = headerValidationFailures(input);
  if (first !== undefined) throw first;
}
