/**
 * The checks every header decoder applies, whatever the encoding: the version
 * code is known, the chain exists at the header's height, the height is not
 * below the chain's genesis, and the adjacent parents are sorted, unique and
 * exactly the chains adjacent in the graph that applies to the header.
 * @module
 */
import type { AdjacentParent, UnhashedBlockHeader } from "./blockHeader.ts";
import { ChainError, ChainErrorCode } from "./errors.ts";
import { headerAdjacentChains, type NetworkVersion } from "./networkVersion.ts";
import { versionByCode } from "./versions.ts";

/** Largest µs time and height a header may carry (Number.MAX_SAFE_INTEGER). */
export const MAX_HEADER_NUMBER = Number.MAX_SAFE_INTEGER;

/**
 * Checks the adjacent parent list against the chains a header on `chainId`
 * at `height` must reference.
 * @throws {ChainError} CHAIN_BAD_ADJACENTS naming `adjacents`.
 */
export function checkAdjacentChainIds(
  version: NetworkVersion,
  chainId: number,
  height: number,
  adjacents: readonly AdjacentParent[],
): void {
  const bad = (reason: string): never => {
    throw new ChainError(
      { code: ChainErrorCode.BadAdjacents, field: "adjacents", reason },
      `adjacents: ${reason}`,
    );
  };
  for (let i = 1; i < adjacents.length; i++) {
    const prev = (adjacents[i - 1] as AdjacentParent).chainId;
    const cur = (adjacents[i] as AdjacentParent).chainId;
    if (cur === prev) bad(`chain ${cur} appears twice`);
    if (cur < prev) bad("not sorted by chain id");
  }
  const expected = headerAdjacentChains(version, chainId, height);
  const actual = adjacents.map((a) => a.chainId);
  if (expected.length !== actual.length || expected.some((c, i) => actual[i] !== c)) {
    bad(
      `chain ${chainId} at height ${height} of ${version.name} is adjacent to [${expected.join(",")}], got [${actual.join(",")}]`,
    );
  }
}

/**
 * Checks a decoded header's version, chain, height and adjacent chain ids and
 * returns its version.
 * @throws {ChainError} CHAIN_UNKNOWN_VERSION, CHAIN_BAD_CHAIN_ID,
 *   CHAIN_HEIGHT_OUT_OF_RANGE, CHAIN_BAD_ADJACENTS.
 */
export function checkHeaderShape(header: UnhashedBlockHeader): NetworkVersion {
  const version = versionByCode(header.versionCode);
  if (!version.genesisHeights.has(header.chainId)) {
    throw new ChainError(
      {
        code: ChainErrorCode.BadChainId,
        field: "chainId",
        chainId: header.chainId,
        height: header.height,
      },
      `chainId: ${header.chainId} is not a chain of ${version.name}`,
    );
  }
  const genesis = version.genesisHeights.get(header.chainId) as number;
  if (header.height < genesis) {
    throw new ChainError(
      {
        code: ChainErrorCode.BadChainId,
        field: "chainId",
        chainId: header.chainId,
        height: header.height,
      },
      `chainId: chain ${header.chainId} of ${version.name} does not exist before height ${genesis} (header height ${header.height})`,
    );
  }
  checkAdjacentChainIds(version, header.chainId, header.height, header.adjacents);
  return version;
}
