/**
 * The answers of the explorer's API (docs/explorer-api.md) as typed values:
 * what each `Explorer` method returns, written once, at the route
 * (api/routes/appExplorerRoutes.ts), by the exact-JSON writer
 * (`stringifyJson`). Members are plain JSON values, except where stored JSON
 * text is embedded as it is (`RawJson`: a command's `cmd`, a command result,
 * miner data, coinbase): those carry Pact values (decimals beyond a double's
 * precision, integers beyond 2^53) that a parse into JavaScript numbers would
 * change, and copying the text also spares parsing and writing it again.
 *
 * Member order is the object literals' in explorer.ts (the writer keeps
 * insertion order), which is the order docs/explorer-api.md shows.
 * @module
 */
import type { BlockHeaderObject } from "../chain/blockHeaderObject.ts";
import type { JsonValue, RawJson } from "../command/exactJson.ts";

/** A block as lists show it (docs: BlockSummary). */
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

/** A page of a newest-first list; `next` is the opaque cursor of the rest, null at its end. */
export type AnswerPage<T> = {
  /** The number of items returned. */
  readonly limit: number;
  readonly items: readonly T[];
  readonly next: string | null;
};

/** `GET …/blocks`. */
export type BlockSummaryPage = AnswerPage<BlockSummary>;

/** A transaction as a block lists it (docs: TransactionSummary). */
export type TransactionSummary = {
  readonly requestKey: string;
  readonly chain: number;
  readonly height: number;
  readonly blockHash: string;
  readonly position: number;
  readonly sender: string;
  readonly firstCall: string | null;
  readonly gas: number;
  readonly resultStatus: "success" | "failure";
  readonly pactId: string | null;
  readonly step: number | null;
  readonly orphaned: boolean;
};

/** An event of a command result; `params` parsed exactly (numbers keep their text). */
export type ExplorerEvent = {
  readonly module: string;
  readonly name: string;
  readonly params: readonly JsonValue[];
  readonly moduleHash: string | null;
};

/** A transaction of `GET …/block/{hash}`: its summary, result as stored, events. */
export type BlockTransaction = TransactionSummary & {
  readonly result: RawJson | null;
  readonly events: readonly ExplorerEvent[];
};

/** `GET …/block/{hash}`. Miner data and coinbase as stored (null when not JSON). */
export type ExplorerBlockAnswer = {
  readonly block: BlockSummary;
  readonly header: BlockHeaderObject;
  readonly minerData: RawJson | null;
  readonly coinbase: RawJson | null;
  readonly children: readonly string[];
  readonly transactions: readonly BlockTransaction[];
};

/**
 * A signed command, `{hash, sigs, cmd}`, with `cmd` its exact text as a JSON
 * object. A mined command's `hash` and `sigs` are its stored members' text; a
 * pending one's are built from the mempool's command.
 */
export type ExplorerCommand = {
  readonly hash: string | RawJson | null;
  readonly sigs: RawJson | readonly { readonly sig: string }[];
  readonly cmd: RawJson;
};

/** A step of a defpact in `crossChain`. */
export type CrossChainStep = {
  readonly step: number;
  readonly chain: number | null;
  readonly requestKey: string | null;
  readonly status: "confirmed" | "pending" | "orphaned" | "missing";
  readonly blockHash: string | null;
  readonly height: number | null;
};

/** The steps of a defpact, their chains and statuses (`crossChain` of a transaction). */
export type CrossChainAnswer = {
  readonly pactId: string;
  readonly stepCount: number;
  readonly sourceChain: number | null;
  readonly targetChain: number | null;
  readonly amount: string | null;
  readonly receiver: string | null;
  readonly steps: readonly CrossChainStep[];
  readonly complete: boolean;
};

/** `GET …/tx/{requestKey}`. */
export type TransactionAnswer = {
  readonly requestKey: string;
  readonly status: "confirmed" | "pending" | "orphaned";
  readonly chain: number;
  readonly block: BlockSummary | null;
  readonly confirmations: number | null;
  readonly orphanedIn: readonly BlockSummary[];
  readonly command: ExplorerCommand | null;
  readonly sender: string | null;
  readonly firstCall: string | null;
  readonly expiresAt: number | null;
  readonly gas: number | null;
  /** The command result as `/poll` answers it (with `metaData`), or as stored. */
  readonly result: RawJson | null;
  readonly events: readonly ExplorerEvent[];
  readonly crossChain: CrossChainAnswer | null;
};

/** `GET …/account/{account}`. */
export type AccountAnswer = {
  readonly account: string;
  readonly chains: readonly {
    readonly chain: number;
    readonly transfers: number;
    readonly transactions: number;
  }[];
};

/** A `TRANSFER` event of an account, as `GET …/account/{account}/transfers` lists it. */
export type TransferItem = {
  readonly requestKey: string;
  readonly chain: number;
  readonly height: number;
  readonly blockHash: string;
  readonly creationTime: number;
  readonly module: string;
  readonly from: string;
  readonly to: string;
  readonly amount: string | null;
  readonly direction: "in" | "out" | "self";
  readonly crossChain: { readonly pactId: string } | null;
};

/** `GET …/account/{account}/transfers`. */
export type TransferPage = AnswerPage<TransferItem>;

/** A chain that has a module, in `GET …/module/{name}`. */
export type ModuleOnChain = {
  readonly chain: number;
  /** Null only when the node has no contract state to read (modules from the index). */
  readonly kind: "module" | "interface" | null;
  readonly hash: string | null;
  readonly interfaces: readonly string[];
  readonly code: string | null;
  readonly deployedIn: {
    readonly requestKey: string;
    readonly height: number;
    readonly blockHash: string;
  } | null;
};

/** `GET …/module/{name}`. */
export type ModuleAnswer = { readonly name: string; readonly chains: readonly ModuleOnChain[] };

/** One thing a search text names. */
export type SearchResult =
  | {
      readonly kind: "transaction";
      readonly requestKey: string;
      readonly chain: number;
      readonly status: "confirmed" | "pending" | "orphaned";
      readonly height: number | null;
      readonly blockHash: string | null;
    }
  | { readonly kind: "block"; readonly block: BlockSummary }
  | { readonly kind: "height"; readonly height: number; readonly blocks: readonly BlockSummary[] }
  | { readonly kind: "account"; readonly account: string; readonly chains: readonly number[] }
  | { readonly kind: "module"; readonly name: string; readonly chains: readonly number[] };

/** `GET …/search?q=…`. */
export type SearchAnswer = { readonly query: string; readonly results: readonly SearchResult[] };
