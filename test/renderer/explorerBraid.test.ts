/**
 * The explorer's braid picture as plain data: the grid of newest heights by chain for the
 * twenty-chain and Petersen graphs, links to parents and to adjacent chains' blocks only
 * along the graph, a reorganised chain drawn along its new branch, chains still loading,
 * and the graph read from `/info`.
 */
import { describe, expect, it } from "vitest";
import {
  type BraidBlock,
  braidLayout,
  braidLoadFrom,
} from "../../renderer/src/features/explorer/braid.ts";
import { parseInfoGraph } from "../../renderer/src/features/explorer/wire/headers.ts";
import type { ChainGraph as NodeGraph } from "../../src-node/chain/chainGraph.ts";
import { petersenGraph, twentyChainGraph } from "../../src-node/chain/knownGraphs.ts";

/** A 43-character hash naming (chain, height, branch). */
function h(chain: number, height: number, branch = "a"): string {
  return `${branch}${chain}x${height}`.padEnd(43, "_");
}

/** Every chain of `graph` from height 0 to `top`, each block referencing its neighbours. */
function braid(graph: NodeGraph, top: number): BraidBlock[] {
  const blocks: BraidBlock[] = [];
  for (let height = 0; height <= top; height++) {
    for (const c of graph.chains) {
      blocks.push({
        chainId: c,
        height,
        hash: h(c, height),
        parent: height === 0 ? h(c, 0) : h(c, height - 1),
        adjacents:
          height === 0
            ? []
            : (graph.adjacency.get(c) ?? []).map((a) => ({ chainId: a, hash: h(a, height - 1) })),
      });
    }
  }
  return blocks;
}

const headsAt = (graph: NodeGraph, top: number) =>
  graph.chains.map((c) => ({ chainId: c, height: top, hash: h(c, top) }));

describe("[renderer] explorer braid layout", () => {
  it("draws the newest rows of twenty chains with each block's parent and three neighbours", () => {
    const layout = braidLayout(
      twentyChainGraph.adjacency,
      headsAt(twentyChainGraph, 30),
      braid(twentyChainGraph, 30),
      6,
    );
    expect(layout.columns).toEqual(twentyChainGraph.chains);
    expect(layout.heights).toEqual([30, 29, 28, 27, 26, 25]);
    expect(layout.cells).toHaveLength(20 * 6);
    expect(layout.waiting).toEqual([]);
    // Newest row first, chains in order.
    expect(layout.cells[0]).toEqual({ chainId: 0, height: 30, hash: h(0, 30), column: 0, row: 0 });
    // Rows 0..4 link to the row below: one parent and three adjacent links per block.
    const parents = layout.links.filter((l) => l.kind === "parent");
    const adjacent = layout.links.filter((l) => l.kind === "adjacent");
    expect(parents).toHaveLength(20 * 5);
    expect(adjacent).toHaveLength(20 * 5 * 3);
    for (const l of adjacent) {
      expect(twentyChainGraph.adjacency.get(l.from.chainId)).toContain(l.to.chainId);
      expect(l.to.row).toBe(l.from.row + 1);
    }
    const fromChain0 = adjacent.filter((l) => l.from.chainId === 0 && l.from.row === 0);
    expect(fromChain0.map((l) => l.to.chainId)).toEqual([5, 10, 15]);
  });

  it("draws ten chains on the Petersen graph", () => {
    const layout = braidLayout(
      petersenGraph.adjacency,
      headsAt(petersenGraph, 3),
      braid(petersenGraph, 3),
      8,
    );
    // Only four heights exist.
    expect(layout.heights).toEqual([3, 2, 1, 0]);
    expect(layout.cells).toHaveLength(40);
    expect(layout.links.filter((l) => l.kind === "adjacent")).toHaveLength(10 * 3 * 3);
  });

  it("follows a chain's best branch after a reorganisation, ignoring the orphaned blocks", () => {
    const blocks = braid(petersenGraph, 10);
    // Chain 4 switched to branch b at heights 9 and 10 (fork above height 8).
    const b9: BraidBlock = {
      chainId: 4,
      height: 9,
      hash: h(4, 9, "b"),
      parent: h(4, 8),
      adjacents: [],
    };
    const b10: BraidBlock = {
      chainId: 4,
      height: 10,
      hash: h(4, 10, "b"),
      parent: b9.hash,
      adjacents: [],
    };
    const heads = headsAt(petersenGraph, 10).map((x) =>
      x.chainId === 4 ? { ...x, hash: b10.hash } : x,
    );
    const layout = braidLayout(petersenGraph.adjacency, heads, [...blocks, b9, b10], 4);
    const chain4 = layout.cells.filter((c) => c.chainId === 4).map((c) => c.hash);
    expect(chain4).toEqual([h(4, 10, "b"), h(4, 9, "b"), h(4, 8), h(4, 7)]);
    expect(layout.cells.some((c) => c.hash === h(4, 10))).toBe(false);
    // Chain 1's block at 10 references the orphaned h(4, 9): that link is not drawn.
    expect(layout.links.some((l) => l.from.hash === h(1, 10) && l.to.chainId === 4)).toBe(false);
  });

  it("shows chains at different heights on their own rows and says which are still loading", () => {
    const blocks = braid(petersenGraph, 5).filter((b) => !(b.chainId === 2 && b.height > 3));
    const heads = headsAt(petersenGraph, 5).map((x) =>
      x.chainId === 2
        ? { ...x, height: 4, hash: h(2, 4) }
        : x.chainId === 7
          ? { ...x, hash: "z".repeat(43) }
          : x,
    );
    // Chain 7's head is unknown and its loaded blocks stop at 5: the newest loaded is shown.
    const layout = braidLayout(
      petersenGraph.adjacency,
      heads,
      blocks.filter((b) => b.chainId !== 9),
      3,
    );
    const rowsOf = (c: number) => layout.cells.filter((x) => x.chainId === c).map((x) => x.height);
    expect(rowsOf(0)).toEqual([5, 4, 3]);
    expect(rowsOf(2)).toEqual([3]);
    expect(rowsOf(7)).toEqual([5, 4, 3]);
    expect(layout.waiting).toEqual([9]);
  });

  it("is empty before any head is known, and loads one row below the window", () => {
    expect(braidLayout(petersenGraph.adjacency, [], [], 8)).toMatchObject({
      heights: [],
      cells: [],
    });
    expect(braidLoadFrom(100, 8)).toBe(92);
    expect(braidLoadFrom(3, 8)).toBe(0);
  });
});

describe("[renderer] chain graph from /info", () => {
  it("reads the graph of the greatest height", () => {
    const info = {
      nodeChains: ["0", "1", "2", "3"],
      nodeGraphHistory: [
        [
          10,
          [
            [0, [1]],
            [1, [0, 2]],
            [2, [1, 3]],
            [3, [2]],
          ],
        ],
        [
          0,
          [
            [0, []],
            [1, []],
          ],
        ],
      ],
    };
    const g = parseInfoGraph(info);
    expect(g.ok && [...g.value.entries()]).toEqual([
      [0, [1]],
      [1, [0, 2]],
      [2, [1, 3]],
      [3, [2]],
    ]);
  });

  it("falls back to the listed chains and rejects a malformed graph", () => {
    const g = parseInfoGraph({ nodeChains: ["0", "1"], nodeGraphHistory: [] });
    expect(g.ok && [...g.value.keys()]).toEqual([0, 1]);
    expect(parseInfoGraph({ nodeGraphHistory: [[0, [[0, ["x"]]]]] })).toEqual({
      ok: false,
      error: "graph[0][1][0]: expected a chain id",
    });
    expect(
      parseInfoGraph({
        nodeGraphHistory: [
          [
            0,
            [
              [0, []],
              [0, []],
            ],
          ],
        ],
      }).ok,
    ).toBe(false);
  });
});
