/**
 * Whether a cut is braided (reference chainweb-api.md §5.1): it holds exactly
 * the chains of the graph at its minimum height, all heads are of the same
 * network, and every pair of adjacent chains is braided: their heights differ
 * by at most 1, and each head's link to the other chain names the other head
 * (the other is one lower) or the other head's parent (same height).
 * Genesis headers link to genesis parent hashes, not to neighbours, so their
 * links are not compared.
 * @module
 */
import type { BlockHeader } from "./blockHeader.ts";
import { type Cut, cutMinHeight } from "./cut.ts";
import { ChainError, ChainErrorCode } from "./errors.ts";
import { graphAtHeight } from "./graphHistory.ts";
import { isGenesisHeight, type NetworkVersion } from "./networkVersion.ts";

function linkProblem(version: NetworkVersion, a: BlockHeader, b: BlockHeader): string | undefined {
  if (isGenesisHeight(version, a.chainId, a.height)) return undefined;
  const link = a.adjacents.find((x) => x.chainId === b.chainId);
  if (link === undefined) return undefined;
  const expected =
    b.height === a.height ? b.parent : b.height === a.height - 1 ? b.hash : undefined;
  if (expected !== undefined && link.hash !== expected) {
    return `chain ${a.chainId} (height ${a.height}) links to ${link.hash} on chain ${b.chainId}, expected ${expected}`;
  }
  return undefined;
}

/** Every braiding problem of the cut, as text (empty when the cut is braided). */
export function cutBraidingProblems(cut: Cut, version: NetworkVersion): string[] {
  if (cut.size === 0) return ["the cut is empty"];
  const problems: string[] = [];
  const graph = graphAtHeight(version.graphHistory, cutMinHeight(cut));
  const have = [...cut.keys()].sort((a, b) => a - b).join(",");
  if (have !== graph.chains.join(",")) {
    problems.push(
      `the cut has chains [${have}], the graph at its minimum height has [${graph.chains}]`,
    );
  }
  for (const h of cut.values()) {
    if (h.versionCode !== version.code) problems.push(`chain ${h.chainId} is of another network`);
  }
  for (const [a, neighbours] of graph.adjacency) {
    for (const b of neighbours) {
      if (b < a) continue;
      const ha = cut.get(a);
      const hb = cut.get(b);
      if (ha === undefined || hb === undefined) continue;
      if (Math.abs(ha.height - hb.height) > 1) {
        problems.push(`chains ${a} and ${b} are ${Math.abs(ha.height - hb.height)} blocks apart`);
        continue;
      }
      for (const p of [linkProblem(version, ha, hb), linkProblem(version, hb, ha)]) {
        if (p !== undefined) problems.push(p);
      }
    }
  }
  return problems;
}

/**
 * Checks that a cut is braided.
 * @throws {ChainError} CHAIN_INVALID_CUT naming the first problem.
 */
export function checkCutBraiding(cut: Cut, version: NetworkVersion): void {
  const [first] = cutBraidingProblems(cut, version);
  if (first !== undefined) {
    throw new ChainError(
      { code: ChainErrorCode.InvalidCut, field: "cut", reason: first },
      `cut: ${first}`,
    );
  }
}
