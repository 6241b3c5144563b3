/**
 * The node information (`GET {base}/info`, spec "Node information"): the fields the UI
 * shows. Other fields are accepted and ignored.
 * @module
 */
import { array, type Decoded, decode, natural, record, string } from "./decode.ts";

export type NodeInfo = {
  readonly nodeVersion: string;
  readonly nodeApiVersion: string;
  readonly nodePackageVersion: string;
  readonly nodeChains: readonly string[];
  readonly nodeNumberOfChains: number;
};

export function parseNodeInfo(raw: unknown): Decoded<NodeInfo> {
  return decode(raw, (x) => {
    const o = record(x, "info");
    return {
      nodeVersion: string(o.nodeVersion, "nodeVersion"),
      nodeApiVersion: string(o.nodeApiVersion, "nodeApiVersion"),
      nodePackageVersion: string(o.nodePackageVersion, "nodePackageVersion"),
      nodeChains: array(o.nodeChains, "nodeChains").map((c, i) => string(c, `nodeChains[${i}]`)),
      nodeNumberOfChains: natural(o.nodeNumberOfChains, "nodeNumberOfChains"),
    };
  });
}
