/**
 * The explorer index's endpoints (`/app/api/explorer/*`, docs/explorer-api.md) as contract
 * entries (`api/endpoint.ts`): the shared table's routes (src-node/appContract/appRoutes.ts)
 * over the parsers of `wire/index.ts`; `app/appEndpoints.ts` lists them. Every route is a GET.
 * @module
 */
import { appRoutes } from "../../../../src-node/appContract/appRoutes.ts";
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
  status: endpoint(appRoutes.explorer.status, parseIndexStatus),
  blocks: endpoint(appRoutes.explorer.blocks, parseBlockSummaryPage),
  block: endpoint(appRoutes.explorer.block, parseIndexedBlock),
  transaction: endpoint(appRoutes.explorer.transaction, parseIndexedTransaction),
  account: endpoint(appRoutes.explorer.account, parseAccountChains),
  transfers: endpoint(appRoutes.explorer.transfers, parseTransferPage),
  module: endpoint(appRoutes.explorer.module, parseModule),
  search: endpoint(appRoutes.explorer.search, parseSearch),
};
