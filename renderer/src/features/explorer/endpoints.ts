/**
 * The explorer index's endpoints (`/app/api/explorer/*`, docs/explorer-api.md) as contract
 * entries (`api/endpoint.ts`) over the parsers of `wire/index.ts`; `app/appEndpoints.ts`
 * lists them. Every route is a GET.
 * @module
 */
import { array, type Decoded, decode, record, string } from "../../api/decode.ts";
import { endpoint } from "../../api/endpoint.ts";
import {
  type BlockSummary,
  blockSummaryAt,
  parseAccountChains,
  parseBlockSummaryPage,
  parseIndexedTransaction,
  parseIndexStatus,
  parseModule,
  parseSearch,
  parseTransferPage,
} from "./wire/index.ts";

/**
 * `GET /app/api/explorer/block/{hash}`, as far as the UI reads it (it shows blocks from the
 * ledger API): the block's summary, its children and how many transactions it answers.
 */
export type IndexedBlock = {
  readonly block: BlockSummary;
  readonly children: readonly string[];
  readonly transactions: number;
};

export function parseIndexedBlock(raw: unknown): Decoded<IndexedBlock> {
  return decode(raw, (x) => {
    const o = record(x, "answer");
    record(o.header, "header");
    return {
      block: blockSummaryAt(o.block, "block"),
      children: array(o.children, "children").map((c, i) => string(c, `children[${i}]`)),
      transactions: array(o.transactions, "transactions").length,
    };
  });
}

export const explorerEndpoints = {
  status: endpoint({ method: "GET", route: "/app/api/explorer/status", reply: parseIndexStatus }),
  blocks: endpoint({
    method: "GET",
    route: "/app/api/explorer/blocks",
    query: ["chain", "maxheight", "limit", "next"],
    reply: parseBlockSummaryPage,
  }),
  block: endpoint({
    method: "GET",
    route: "/app/api/explorer/block/:hash",
    reply: parseIndexedBlock,
  }),
  transaction: endpoint({
    method: "GET",
    route: "/app/api/explorer/tx/:requestKey",
    reply: parseIndexedTransaction,
  }),
  account: endpoint({
    method: "GET",
    route: "/app/api/explorer/account/:account",
    reply: parseAccountChains,
  }),
  transfers: endpoint({
    method: "GET",
    route: "/app/api/explorer/account/:account/transfers",
    query: ["chain", "limit", "next"],
    reply: parseTransferPage,
  }),
  module: endpoint({ method: "GET", route: "/app/api/explorer/module/:name", reply: parseModule }),
  search: endpoint({
    method: "GET",
    route: "/app/api/explorer/search",
    query: ["q"],
    reply: parseSearch,
  }),
};
