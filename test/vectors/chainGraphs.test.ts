/**
 * Shared vectors chain-graphs.json: the Petersen and twenty-chain graphs
 * (adjacency, edges, distances, diameter) and the graph history per version.
 */
import { describe, expect, it } from "vitest";
import { chainDistance, shortestChainPath } from "../../src-node/chain/chainGraph.ts";
import { graphAtHeight } from "../../src-node/chain/graphHistory.ts";
import { petersenGraph, twentyChainGraph } from "../../src-node/chain/knownGraphs.ts";
import { versionByName } from "../../src-node/chain/versions.ts";
import { loadVectors } from "../support/vectors.ts";

type GraphCase = {
  name: string;
  order: number;
  size: number;
  degree: number;
  diameter: number;
  adjacency: Record<string, number[]>;
  edges: [number, number][];
  distances: number[][];
};
type HistoryCase = {
  network: string;
  versionCode: number;
  graphs: { fromHeight: number; graph: string }[];
};

const file = loadVectors<GraphCase>("chain-graphs.json");
const graphsByName = { petersen: petersenGraph, twentyChain: twentyChainGraph } as const;

describe("[chain] chain-graphs.json vectors", () => {
  for (const c of file.cases) {
    describe(c.name, () => {
      const g = graphsByName[c.name as keyof typeof graphsByName];
      it("is a known graph", () => expect(g).toBeDefined());
      it("has the order, degree and diameter", () => {
        expect(g.chains.length).toBe(c.order);
        expect(g.degree).toBe(c.degree);
        expect(g.diameter).toBe(c.diameter);
      });
      it("has the adjacency lists (ascending)", () => {
        const actual = Object.fromEntries([...g.adjacency].map(([k, v]) => [String(k), [...v]]));
        expect(actual).toEqual(c.adjacency);
      });
      it("has the edges", () => {
        const edges = g.chains.flatMap((a) =>
          (g.adjacency.get(a) ?? []).filter((b) => a < b).map((b) => [a, b]),
        );
        expect(edges.length).toBe(c.size);
        expect(edges).toEqual(c.edges);
      });
      it("has the all-pairs distances, and shortest paths of that length", () => {
        for (const a of g.chains) {
          for (const b of g.chains) {
            expect(chainDistance(g, a, b)).toBe(c.distances[a]?.[b]);
            const path = shortestChainPath(g, a, b);
            expect(path.length - 1).toBe(c.distances[a]?.[b]);
            expect(path[0]).toBe(a);
            expect(path[path.length - 1]).toBe(b);
            for (let i = 1; i < path.length; i++) {
              expect(g.adjacency.get(path[i - 1] as number)).toContain(path[i]);
            }
          }
        }
      });
    });
  }

  describe("graph history per version", () => {
    for (const h of file.graphHistory as HistoryCase[]) {
      it(h.network, () => {
        const v = versionByName(h.network);
        expect(v.code).toBe(h.versionCode);
        expect(
          v.graphHistory.map((e) => ({ fromHeight: e.fromHeight, graph: e.graph.name })),
        ).toEqual(h.graphs);
        for (const e of h.graphs) {
          expect(graphAtHeight(v.graphHistory, e.fromHeight).name).toBe(e.graph);
          if (e.fromHeight > 0) {
            expect(graphAtHeight(v.graphHistory, e.fromHeight - 1).name).not.toBe(e.graph);
          }
        }
      });
    }
  });
});
