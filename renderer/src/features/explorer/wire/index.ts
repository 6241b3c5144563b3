/**
 * Answers of the explorer index's API (`/app/api/explorer/…`, docs/explorer-api.md): block
 * and transaction summaries, a transaction with its cross-chain steps, an account's chains
 * and transfers, a module, search results and the index's state.
 * @module
 */
import type { JsonValue } from "../../../../../src-node/command/exactJson.ts";
import {
  array,
  blockHash,
  boolean,
  chainId,
  type Decoded,
  decode,
  natural,
  record,
  reject,
  string,
} from "../../../api/decode.ts";
import { type Page, pageOf } from "./headers.ts";
import {
  commandOfObject,
  resultAt,
  type TxCommand,
  type TxEvent,
  type TxResult,
  valueText,
} from "./transactions.ts";

const nullable = <T>(x: unknown, f: (x: unknown) => T): T | null => (x === null ? null : f(x));

export type BlockSummary = {
  readonly hash: string;
  readonly chain: number;
  readonly height: number;
  readonly parent: string;
  readonly creationTime: number;
  readonly miner: string;
  readonly transactionCount: number;
  readonly orphaned: boolean;
};

export function blockSummaryAt(x: unknown, path: string): BlockSummary {
  const o = record(x, path);
  return {
    hash: blockHash(o.hash, `${path}.hash`),
    chain: chainId(o.chain, `${path}.chain`),
    height: natural(o.height, `${path}.height`),
    parent: blockHash(o.parent, `${path}.parent`),
    creationTime: natural(o.creationTime, `${path}.creationTime`),
    miner: string(o.miner, `${path}.miner`),
    transactionCount: natural(o.transactionCount, `${path}.transactionCount`),
    orphaned: boolean(o.orphaned, `${path}.orphaned`),
  };
}

export type IndexStatus = {
  readonly state: "catching-up" | "ready";
  readonly indexedBlocks: number;
  readonly totalBlocks: number;
  readonly message: string;
};

export function parseIndexStatus(raw: unknown): Decoded<IndexStatus> {
  return decode(raw, (x) => {
    const o = record(x, "status");
    const state = string(o.state, "state");
    if (state !== "catching-up" && state !== "ready") reject("state", "catching-up or ready");
    return {
      state: state as IndexStatus["state"],
      indexedBlocks: natural(o.indexedBlocks, "indexedBlocks"),
      totalBlocks: natural(o.totalBlocks, "totalBlocks"),
      message: string(o.message, "message"),
    };
  });
}

function eventsAt(x: unknown, path: string): TxEvent[] {
  return array(x, path).map((e, i) => {
    const p = `${path}[${i}]`;
    const o = record(e, p);
    return {
      module: string(o.module, `${p}.module`),
      name: string(o.name, `${p}.name`),
      params: array(o.params, `${p}.params`).map((v) => valueText(v as JsonValue)),
    };
  });
}

export type StepStatus = "confirmed" | "pending" | "orphaned" | "missing";

export type CrossChainStep = {
  readonly step: number;
  readonly chain: number | null;
  readonly requestKey: string | null;
  readonly status: StepStatus;
  readonly blockHash: string | null;
  readonly height: number | null;
};

export type CrossChain = {
  readonly pactId: string;
  readonly stepCount: number;
  readonly sourceChain: number;
  readonly targetChain: number | null;
  readonly amount: string | null;
  readonly receiver: string | null;
  readonly steps: readonly CrossChainStep[];
  readonly complete: boolean;
};

const STEP_STATUSES: readonly StepStatus[] = ["confirmed", "pending", "orphaned", "missing"];

function crossChainAt(x: unknown, path: string): CrossChain {
  const o = record(x, path);
  return {
    pactId: string(o.pactId, `${path}.pactId`),
    stepCount: natural(o.stepCount, `${path}.stepCount`),
    sourceChain: chainId(o.sourceChain, `${path}.sourceChain`),
    targetChain: nullable(o.targetChain, (v) => chainId(v, `${path}.targetChain`)),
    amount: nullable(o.amount, (v) => string(v, `${path}.amount`)),
    receiver: nullable(o.receiver, (v) => string(v, `${path}.receiver`)),
    steps: array(o.steps, `${path}.steps`).map((s, i) => {
      const p = `${path}.steps[${i}]`;
      const st = record(s, p);
      const status = string(st.status, `${p}.status`) as StepStatus;
      if (!STEP_STATUSES.includes(status)) reject(`${p}.status`, STEP_STATUSES.join(", "));
      return {
        step: natural(st.step, `${p}.step`),
        chain: nullable(st.chain ?? null, (v) => chainId(v, `${p}.chain`)),
        requestKey: nullable(st.requestKey, (v) => blockHash(v, `${p}.requestKey`)),
        status,
        blockHash: nullable(st.blockHash, (v) => blockHash(v, `${p}.blockHash`)),
        height: nullable(st.height, (v) => natural(v, `${p}.height`)),
      };
    }),
    complete: boolean(o.complete, `${path}.complete`),
  };
}

export type TxStatus = "confirmed" | "pending" | "orphaned";

export type IndexedTransaction = {
  readonly requestKey: string;
  readonly status: TxStatus;
  readonly chain: number;
  readonly block: BlockSummary | null;
  readonly confirmations: number | null;
  readonly orphanedIn: readonly BlockSummary[];
  readonly command: TxCommand;
  readonly firstCall: string | null;
  /** UNIX seconds. */
  readonly expiresAt: number;
  readonly gas: number | null;
  readonly result: TxResult | null;
  readonly events: readonly TxEvent[];
  readonly crossChain: CrossChain | null;
};

export function parseIndexedTransaction(raw: unknown): Decoded<IndexedTransaction> {
  return decode(raw, (x) => {
    const o = record(x, "tx");
    const status = string(o.status, "status");
    if (status !== "confirmed" && status !== "pending" && status !== "orphaned") {
      reject("status", "confirmed, pending or orphaned");
    }
    const requestKey = blockHash(o.requestKey, "requestKey");
    const command = record(o.command, "command");
    return {
      requestKey,
      status: status as TxStatus,
      chain: chainId(o.chain, "chain"),
      block: nullable(o.block, (v) => blockSummaryAt(v, "block")),
      confirmations: nullable(o.confirmations, (v) => natural(v, "confirmations")),
      orphanedIn: array(o.orphanedIn ?? [], "orphanedIn").map((b, i) =>
        blockSummaryAt(b, `orphanedIn[${i}]`),
      ),
      command: commandOfObject(requestKey, command.cmd, "command"),
      firstCall: nullable(o.firstCall ?? null, (v) => string(v, "firstCall")),
      expiresAt: natural(o.expiresAt, "expiresAt"),
      gas: nullable(o.gas, (v) => natural(v, "gas")),
      result: nullable(o.result, (v) => resultAt(v as JsonValue, "result")),
      events: eventsAt(o.events ?? [], "events"),
      crossChain: nullable(o.crossChain ?? null, (v) => crossChainAt(v, "crossChain")),
    };
  });
}

export type AccountChains = {
  readonly account: string;
  readonly chains: readonly {
    readonly chain: number;
    readonly transfers: number;
    readonly transactions: number;
  }[];
};

export function parseAccountChains(raw: unknown): Decoded<AccountChains> {
  return decode(raw, (x) => {
    const o = record(x, "account");
    return {
      account: string(o.account, "account"),
      chains: array(o.chains, "chains").map((c, i) => {
        const p = `chains[${i}]`;
        const r = record(c, p);
        return {
          chain: chainId(r.chain, `${p}.chain`),
          transfers: natural(r.transfers, `${p}.transfers`),
          transactions: natural(r.transactions, `${p}.transactions`),
        };
      }),
    };
  });
}

export type Transfer = {
  readonly requestKey: string;
  readonly chain: number;
  readonly height: number;
  readonly blockHash: string;
  readonly creationTime: number;
  readonly module: string;
  readonly from: string;
  readonly to: string;
  readonly amount: string;
  readonly direction: "in" | "out" | "self";
  readonly crossChainPactId: string | null;
};

function transferAt(x: unknown, path: string): Transfer {
  const o = record(x, path);
  const direction = string(o.direction, `${path}.direction`);
  if (direction !== "in" && direction !== "out" && direction !== "self") {
    reject(`${path}.direction`, "in, out or self");
  }
  const cc =
    o.crossChain === null || o.crossChain === undefined
      ? null
      : record(o.crossChain, `${path}.crossChain`);
  return {
    requestKey: blockHash(o.requestKey, `${path}.requestKey`),
    chain: chainId(o.chain, `${path}.chain`),
    height: natural(o.height, `${path}.height`),
    blockHash: blockHash(o.blockHash, `${path}.blockHash`),
    creationTime: natural(o.creationTime, `${path}.creationTime`),
    module: string(o.module, `${path}.module`),
    from: string(o.from, `${path}.from`),
    to: string(o.to, `${path}.to`),
    amount: string(o.amount, `${path}.amount`),
    direction: direction as Transfer["direction"],
    crossChainPactId: cc === null ? null : string(cc.pactId, `${path}.crossChain.pactId`),
  };
}

export function parseTransferPage(raw: unknown): Decoded<Page<Transfer>> {
  return decode(raw, (x) => pageOf(x, transferAt));
}

export function parseBlockSummaryPage(raw: unknown): Decoded<Page<BlockSummary>> {
  return decode(raw, (x) => pageOf(x, blockSummaryAt));
}

export type ModuleOnChain = {
  readonly chain: number;
  readonly kind: "module" | "interface";
  readonly hash: string;
  readonly interfaces: readonly string[];
  readonly code: string;
  readonly deployedIn: {
    readonly requestKey: string;
    readonly height: number;
    readonly blockHash: string;
  } | null;
};

export type ModuleAnswer = { readonly name: string; readonly chains: readonly ModuleOnChain[] };

export function parseModule(raw: unknown): Decoded<ModuleAnswer> {
  return decode(raw, (x) => {
    const o = record(x, "module");
    return {
      name: string(o.name, "name"),
      chains: array(o.chains, "chains").map((c, i) => {
        const p = `chains[${i}]`;
        const r = record(c, p);
        const kind = string(r.kind, `${p}.kind`);
        if (kind !== "module" && kind !== "interface") reject(`${p}.kind`, "module or interface");
        const d =
          r.deployedIn === null || r.deployedIn === undefined
            ? null
            : record(r.deployedIn, `${p}.deployedIn`);
        return {
          chain: chainId(r.chain, `${p}.chain`),
          kind: kind as ModuleOnChain["kind"],
          hash: string(r.hash, `${p}.hash`),
          interfaces: array(r.interfaces, `${p}.interfaces`).map((s, j) =>
            string(s, `${p}.interfaces[${j}]`),
          ),
          code: string(r.code, `${p}.code`),
          deployedIn:
            d === null
              ? null
              : {
                  requestKey: blockHash(d.requestKey, `${p}.deployedIn.requestKey`),
                  height: natural(d.height, `${p}.deployedIn.height`),
                  blockHash: blockHash(d.blockHash, `${p}.deployedIn.blockHash`),
                },
        };
      }),
    };
  });
}

export type SearchResult =
  | {
      readonly kind: "transaction";
      readonly requestKey: string;
      readonly chain: number;
      readonly status: TxStatus;
      readonly height: number | null;
      readonly blockHash: string | null;
    }
  | { readonly kind: "block"; readonly block: BlockSummary }
  | { readonly kind: "height"; readonly height: number; readonly blocks: readonly BlockSummary[] }
  | { readonly kind: "account"; readonly account: string; readonly chains: readonly number[] }
  | { readonly kind: "module"; readonly name: string; readonly chains: readonly number[] };

export type SearchAnswer = { readonly query: string; readonly results: readonly SearchResult[] };

const chainsAt = (x: unknown, path: string) =>
  array(x, path).map((c, i) => chainId(c, `${path}[${i}]`));

function searchResultAt(x: unknown, path: string): SearchResult | null {
  const o = record(x, path);
  switch (o.kind) {
    case "transaction": {
      const status = string(o.status, `${path}.status`);
      if (status !== "confirmed" && status !== "pending" && status !== "orphaned") {
        reject(`${path}.status`, "confirmed, pending or orphaned");
      }
      return {
        kind: "transaction",
        requestKey: blockHash(o.requestKey, `${path}.requestKey`),
        chain: chainId(o.chain, `${path}.chain`),
        status: status as TxStatus,
        height: nullable(o.height, (v) => natural(v, `${path}.height`)),
        blockHash: nullable(o.blockHash, (v) => blockHash(v, `${path}.blockHash`)),
      };
    }
    case "block":
      return { kind: "block", block: blockSummaryAt(o.block, `${path}.block`) };
    case "height":
      return {
        kind: "height",
        height: natural(o.height, `${path}.height`),
        blocks: array(o.blocks, `${path}.blocks`).map((b, i) =>
          blockSummaryAt(b, `${path}.blocks[${i}]`),
        ),
      };
    case "account":
      return {
        kind: "account",
        account: string(o.account, `${path}.account`),
        chains: chainsAt(o.chains, `${path}.chains`),
      };
    case "module":
      return {
        kind: "module",
        name: string(o.name, `${path}.name`),
        chains: chainsAt(o.chains, `${path}.chains`),
      };
    default:
      // A kind this app does not know yet is skipped, not an error.
      return null;
  }
}

export function parseSearch(raw: unknown): Decoded<SearchAnswer> {
  return decode(raw, (x) => {
    const o = record(x, "search");
    return {
      query: string(o.query, "query"),
      results: array(o.results, "results")
        .map((r, i) => searchResultAt(r, `results[${i}]`))
        .filter((r): r is SearchResult => r !== null),
    };
  });
}
