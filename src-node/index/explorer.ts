/**
 * `Explorer`: the answers of the explorer's API (docs/explorer-api.md) as
 * typed values (explorerAnswers.ts), transport-free: the route
 * (api/routes/appExplorerRoutes.ts) writes each once with the exact-JSON
 * writer. Lists, keys and flags come from the index (ChainIndex); commands,
 * results and events are read from the block database's payloads, as /poll
 * reads them, and embedded exactly (RawJson); modules' code and hashes from
 * the contract state at the best cut; pending commands from the mempool.
 * @module
 */

import { blockHeaderToObject } from "../chain/blockHeaderObject.ts";
import type { ParsedCommand } from "../command/commandTypes.ts";
import {
  isJsonObject,
  JsonNumber,
  type JsonValue,
  parseJsonExact,
  RawJson,
  readJsonExact,
  readJsonMembers,
} from "../command/exactJson.ts";
import { SysTable } from "../contract/storage/contractStorage.ts";
import type { Hash32 } from "../encoding/hash32.ts";
import { isNodeError } from "../errors/nodeError.ts";
import { readCommandResult, writeCommandResult } from "../exec/commandResult.ts";
import type { Mempool } from "../mempool/mempool.ts";
import type { BlockDb } from "../store/blockDb.ts";
import type {
  BlockKey,
  EventKey,
  IndexBlockRow,
  IndexTransferRow,
  IndexTxRow,
  IndexTxWithBlock,
} from "../store/indexStore.ts";
import { SqliteContractStorage } from "../store/sqliteContractStorage.ts";
import { NO_TXID_LIMIT, type StateDb } from "../store/stateDb.ts";
import { amountText, blockEntries, firstCallOf } from "./blockEntries.ts";
import type { ChainIndex, IndexStatus } from "./chainIndex.ts";
import { badQuery, ExplorerError, ExplorerErrorCode } from "./errors.ts";
import type {
  AccountAnswer,
  BlockSummary,
  BlockSummaryPage,
  CrossChainAnswer,
  CrossChainStep,
  ExplorerBlockAnswer,
  ExplorerCommand,
  ExplorerEvent,
  ModuleAnswer,
  ModuleOnChain,
  SearchAnswer,
  SearchResult,
  TransactionAnswer,
  TransactionSummary,
  TransferPage,
} from "./explorerAnswers.ts";

export type ExplorerServices = {
  readonly index: ChainIndex;
  readonly blocks: BlockDb;
  /** The contract state (module code and hashes); absent: modules come from the index only. */
  readonly state?: StateDb | undefined;
  /** Pending commands; absent: nothing is pending. */
  readonly mempool?: Mempool | undefined;
};

export type Page = { readonly limit: number; readonly next: string | undefined };

export const BLOCK_PAGE = { default: 50, max: 360 } as const;
export const TRANSFER_PAGE = { default: 20, max: 100 } as const;
const SEARCH_PREFIX_LIMIT = 10;
const MAX_QUERY = 256;

const KEY = /^[A-Za-z0-9_-]{43}$/;
const HEIGHT = /^(0|[1-9][0-9]*)$/;
const BLOCK_CURSOR = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.([A-Za-z0-9_-]{43})$/;
const EVENT_CURSOR =
  /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.([A-Za-z0-9_-]{43})\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/;

const decoder = new TextDecoder();

/** A 43-character request key or block hash. @throws {ExplorerError} EXPLORER_BAD_QUERY */
export function parseKey(value: string, field: string): string {
  if (!KEY.test(value)) {
    throw badQuery(field, "expected 43 characters of a-z A-Z 0-9 _ -");
  }
  return value;
}

function safeInt(text: string, field: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw badQuery(field, `${text} is too large`);
  return n;
}

function parseBlockCursor(text: string): BlockKey {
  const m = BLOCK_CURSOR.exec(text);
  if (m === null) throw badQuery("next", "not a cursor of this list (pass back `next` unchanged)");
  return {
    height: safeInt(m[1] as string, "next"),
    chainId: safeInt(m[2] as string, "next"),
    hash: m[3] as string,
  };
}

function parseEventCursor(text: string): EventKey {
  const m = EVENT_CURSOR.exec(text);
  if (m === null) throw badQuery("next", "not a cursor of this list (pass back `next` unchanged)");
  return {
    height: safeInt(m[1] as string, "next"),
    chainId: safeInt(m[2] as string, "next"),
    blockHash: m[3] as string,
    position: safeInt(m[4] as string, "next"),
    idx: safeInt(m[5] as string, "next"),
  };
}

const blockCursor = (b: IndexBlockRow) => `${b.height}.${b.chainId}.${b.hash}`;
const eventCursor = (e: IndexTransferRow) =>
  `${e.height}.${e.chainId}.${e.blockHash}.${e.position}.${e.idx}`;

function notFound(what: string, key: string, message: string): ExplorerError {
  return new ExplorerError({ code: ExplorerErrorCode.NotFound, what, key }, message);
}

/** Exact JSON text as a raw part, or null when the text is not JSON (test payloads). */
function rawOrNull(text: string): RawJson | null {
  return readJsonExact(text).ok ? new RawJson(text) : null;
}

function blockSummary(b: IndexBlockRow): BlockSummary {
  return {
    hash: b.hash,
    chain: b.chainId,
    height: b.height,
    parent: b.parent,
    creationTime: b.creationTime,
    miner: b.miner,
    transactionCount: b.txCount,
    orphaned: b.orphaned,
  };
}

function txSummary(t: IndexTxRow, orphaned: boolean): TransactionSummary {
  return {
    requestKey: t.requestKey,
    chain: t.chainId,
    height: t.height,
    blockHash: t.blockHash,
    position: t.position,
    sender: t.sender,
    firstCall: t.firstCall,
    gas: t.gas,
    resultStatus: t.success ? "success" : "failure",
    pactId: t.pactId,
    step: t.step,
    orphaned,
  };
}

/** The events of a command result text, in the API's shape. */
function eventsOf(outputText: string): ExplorerEvent[] {
  const events = readJsonMembers(outputText)?.get("events");
  if (events === undefined) return [];
  const list = parseJsonExact(events.text);
  if (!Array.isArray(list)) return [];
  return (list as JsonValue[]).flatMap((e): ExplorerEvent[] => {
    if (!isJsonObject(e) || typeof e.name !== "string" || !isJsonObject(e.module)) return [];
    const m = e.module;
    const module =
      typeof m.namespace === "string" ? `${m.namespace}.${String(m.name)}` : String(m.name);
    return [
      {
        module,
        name: e.name,
        params: Array.isArray(e.params) ? e.params : [],
        moduleHash: typeof e.moduleHash === "string" ? e.moduleHash : null,
      },
    ];
  });
}

/** The `continuation` member of a command result text, parsed (null when none). */
function continuationOf(outputText: string): Record<string, JsonValue> | null {
  const c = readJsonMembers(outputText)?.get("continuation");
  if (c === undefined || c.text === "null") return null;
  const v = parseJsonExact(c.text);
  return isJsonObject(v) ? (v as Record<string, JsonValue>) : null;
}

/**
 * A stored signed command's JSON text → `{hash, sigs, cmd}`, its members'
 * text embedded as is, with `cmd` also parsed (its fields are read).
 */
function commandJson(transactionText: string): {
  json: ExplorerCommand;
  cmd: Record<string, unknown>;
} | null {
  const m = readJsonMembers(transactionText);
  const cmdText = m?.get("cmd");
  if (m === undefined || m === null || cmdText === undefined) return null;
  const cmdString = JSON.parse(cmdText.text) as unknown;
  if (typeof cmdString !== "string" || !readJsonExact(cmdString).ok) return null;
  return {
    json: {
      hash: m.get("hash") ?? null,
      sigs: m.get("sigs") ?? [],
      cmd: new RawJson(cmdString),
    },
    cmd: JSON.parse(cmdString) as Record<string, unknown>,
  };
}

/** A small integer JSON value (exact numbers included), else null. */
function integerOf(v: JsonValue | undefined): number | null {
  const n = v instanceof JsonNumber ? Number(v.text) : v;
  return typeof n === "number" && Number.isSafeInteger(n) ? n : null;
}

function expiresAtOf(cmd: Record<string, unknown>): number | null {
  const meta = cmd.meta as { creationTime?: unknown; ttl?: unknown } | undefined;
  const ct = meta?.creationTime;
  const ttl = meta?.ttl;
  return typeof ct === "number" && typeof ttl === "number" ? ct + ttl : null;
}

type Located = {
  readonly row: IndexTxWithBlock;
  readonly transaction: string;
  readonly output: string;
  readonly block: IndexBlockRow;
};

export class Explorer {
  readonly #index: ChainIndex;
  readonly #blocks: BlockDb;
  readonly #state: StateDb | undefined;
  readonly #mempool: Mempool | undefined;

  constructor(services: ExplorerServices) {
    this.#index = services.index;
    this.#blocks = services.blocks;
    this.#state = services.state;
    this.#mempool = services.mempool;
  }

  get #store() {
    this.#index.requireOpen();
    return this.#index.store;
  }

  status(): IndexStatus {
    return this.#index.status();
  }

  /** " (the index is catching up, …; it may not have this yet)" while it catches up. */
  #catchingUpNote(): string {
    const s = this.#index.status();
    return s.state === "catching-up"
      ? ` (the index is ${s.message}; it may not have this yet)`
      : "";
  }

  // ---- blocks

  /** Recent blocks, newest first, on every chain or on `chain`. */
  blocks(
    q: Page & { readonly chain?: number | undefined; readonly maxHeight?: number | undefined },
  ): BlockSummaryPage {
    const store = this.#store;
    if (q.chain !== undefined) this.#blocks.requireChain(q.chain);
    let from: BlockKey | undefined;
    if (q.next !== undefined) from = parseBlockCursor(q.next);
    else if (q.maxHeight !== undefined) from = { height: q.maxHeight, chainId: 0, hash: "" };
    const rows =
      q.chain === undefined
        ? store.recentBlocks(from, q.limit + 1)
        : store.recentBlocksOfChain(q.chain, from, q.limit + 1);
    const more = rows[q.limit];
    return {
      limit: Math.min(rows.length, q.limit),
      items: rows.slice(0, q.limit).map(blockSummary),
      next: more === undefined ? null : blockCursor(more),
    };
  }

  /** A block with its transactions, results and events. */
  block(hash: string): ExplorerBlockAnswer {
    parseKey(hash, "hash");
    const store = this.#store;
    const row = store.block(hash);
    const header = row === undefined ? undefined : this.#blocks.header(hash as Hash32);
    const payload = header === undefined ? undefined : this.#blocks.payload(header.payloadHash);
    if (row === undefined || header === undefined || payload === undefined) {
      throw notFound("block", hash, `block ${hash} not found${this.#catchingUpNote()}`);
    }
    const transactions = store.transactionsOfBlock(hash).map((t) => {
      const output = decoder.decode(payload.transactions[t.position]?.output ?? new Uint8Array());
      return {
        ...txSummary(t, row.orphaned),
        result: rawOrNull(output),
        events: eventsOf(output),
      };
    });
    return {
      block: blockSummary(row),
      header: blockHeaderToObject(header),
      minerData: rawOrNull(decoder.decode(payload.minerData)),
      coinbase: rawOrNull(decoder.decode(payload.coinbase)),
      children: store.children(hash).map((c) => c.hash),
      transactions,
    };
  }

  // ---- transactions

  #locate(row: IndexTxWithBlock): Located | undefined {
    const header = this.#blocks.header(row.blockHash as Hash32);
    const payload = header === undefined ? undefined : this.#blocks.payload(header.payloadHash);
    const t = payload?.transactions[row.position];
    if (header === undefined || payload === undefined || t === undefined) return undefined;
    // A block the index has not reached yet (catching up) is read from the payload.
    const block =
      this.#index.store.block(row.blockHash) ?? blockEntries(header, payload, false).block;
    return {
      row,
      transaction: decoder.decode(t.transaction),
      output: decoder.decode(t.output),
      block,
    };
  }

  /**
   * While the index catches up: the command of the best chain with this
   * request key, found through the contract state's results (as /poll finds
   * it) and read from its block.
   */
  #fromState(requestKey: string): IndexTxWithBlock | undefined {
    const state = this.#state;
    if (state === undefined || !this.#index.catchingUp) return undefined;
    for (const chainId of this.#blocks.cut().keys()) {
      const r = state.result(chainId, requestKey);
      const header = r === undefined ? undefined : this.#blocks.header(r.blockHash);
      const payload = header === undefined ? undefined : this.#blocks.payload(header.payloadHash);
      if (header === undefined || payload === undefined) continue;
      const row = blockEntries(header, payload, false).transactions.find(
        (t) => t.requestKey === requestKey,
      );
      if (row !== undefined) return { ...row, orphaned: false, creationTime: header.creationTime };
    }
    return undefined;
  }

  /** The pending command with this request key and its chain. */
  #pending(requestKey: string): { chainId: number; command: ParsedCommand } | undefined {
    const mempool = this.#mempool;
    if (mempool === undefined) return undefined;
    for (const chainId of this.#blocks.cut().keys()) {
      if (!mempool.has(chainId, requestKey)) continue;
      const ready = mempool.candidates(chainId).find((r) => r.command.hash === requestKey);
      if (ready === undefined) continue;
      return { chainId, command: ready.command };
    }
    return undefined;
  }

  /** Whether a continuation of `pactId` at `step` waits in the mempool of `chainId`. */
  #pendingStep(chainId: number, pactId: string, step: number): string | undefined {
    const mempool = this.#mempool;
    if (mempool === undefined || mempool.size(chainId) === 0) return undefined;
    for (const r of mempool.candidates(chainId)) {
      const p = r.command.payload.payload;
      if ("cont" in p && p.cont.pactId === pactId && p.cont.step === step) return r.command.hash;
    }
    return undefined;
  }

  /** A transaction by request key: confirmed, pending or orphaned (else EXPLORER_NOT_FOUND). */
  transaction(requestKey: string): TransactionAnswer {
    parseKey(requestKey, "requestKey");
    const store = this.#store;
    const indexed = store.transactionsByKey(requestKey);
    const fromState = indexed.some((r) => !r.orphaned) ? undefined : this.#fromState(requestKey);
    const rows = fromState === undefined ? indexed : [fromState, ...indexed];
    const best = rows.find((r) => !r.orphaned);
    const orphanedIn = rows
      .filter((r) => r.orphaned)
      .flatMap((r) => {
        const b = store.block(r.blockHash);
        return b === undefined ? [] : [blockSummary(b)];
      });
    const pending = best === undefined ? this.#pending(requestKey) : undefined;
    if (best === undefined && pending === undefined && rows.length === 0) {
      throw notFound(
        "transaction",
        requestKey,
        `transaction ${requestKey} not found: no block this node holds has it and it is not pending here${this.#catchingUpNote()}`,
      );
    }
    if (best === undefined && pending !== undefined) {
      const c = pending.command;
      // Every `cmd` in the mempool went through the exact parser (parseCommand) when it came
      // in or was reloaded: embedded as is. Its fields are read from the text as the index
      // reads a mined command's (blockEntries.ts: `pactId` only), so a pending command shows
      // as it will once mined.
      const cmd = JSON.parse(c.cmd) as Record<string, unknown>;
      const payload = cmd.payload as { exec?: { code?: unknown }; cont?: { pactId?: unknown } };
      const code = payload?.exec?.code;
      const meta = cmd.meta as { sender?: unknown } | undefined;
      const pactId = typeof payload?.cont?.pactId === "string" ? payload.cont.pactId : null;
      return {
        requestKey,
        status: "pending",
        chain: pending.chainId,
        block: null,
        confirmations: null,
        orphanedIn,
        command: { hash: c.hash, sigs: c.sigs.map((sig) => ({ sig })), cmd: new RawJson(c.cmd) },
        sender: typeof meta?.sender === "string" ? meta.sender : null,
        firstCall:
          typeof code === "string" ? firstCallOf(code) : pactId === null ? null : "continuation",
        expiresAt: expiresAtOf(cmd),
        gas: null,
        result: null,
        events: [],
        crossChain: pactId === null ? null : this.#crossChain(pactId),
      };
    }
    const row = (best ?? rows[0]) as IndexTxWithBlock;
    const located = this.#locate(row);
    if (located === undefined) {
      throw notFound("transaction", requestKey, `transaction ${requestKey}: its block is missing`);
    }
    const c = commandJson(located.transaction);
    const head = this.#blocks.cut().get(row.chainId);
    let result = rawOrNull(located.output);
    try {
      result = new RawJson(
        writeCommandResult({
          ...readCommandResult(located.output),
          metaData: {
            blockHeight: located.block.height,
            blockTime: located.block.creationTime,
            blockHash: located.block.hash,
            prevBlockHash: located.block.parent,
          },
        }),
      );
    } catch (e) {
      if (!isNodeError(e)) throw e;
      // Not a command result the node wrote (test payloads): shown as stored.
    }
    return {
      requestKey,
      status: best === undefined ? "orphaned" : "confirmed",
      chain: row.chainId,
      block: blockSummary(located.block),
      confirmations: best === undefined || head === undefined ? null : head.height - row.height + 1,
      orphanedIn: best === undefined ? orphanedIn.slice(1) : orphanedIn,
      command: c?.json ?? null,
      sender: row.sender,
      firstCall: row.firstCall,
      expiresAt: c === null ? null : expiresAtOf(c.cmd),
      gas: row.gas,
      result,
      events: eventsOf(located.output),
      crossChain: row.pactId === null ? null : this.#crossChain(row.pactId),
    };
  }

  /** The steps of a defpact, their chains and statuses. */
  #crossChain(pactId: string): CrossChainAnswer {
    const rows = this.#index.store.transactionsByPact(pactId);
    const byStep = new Map<number, IndexTxWithBlock[]>();
    for (const r of rows) {
      if (r.step === null) continue;
      byStep.set(r.step, [...(byStep.get(r.step) ?? []), r]);
    }
    const first = byStep.get(0)?.find((r) => !r.orphaned) ?? byStep.get(0)?.[0];
    const firstOut = first === undefined ? undefined : this.#locate(first)?.output;
    const cont = firstOut === undefined ? null : continuationOf(firstOut);
    let stepCount = integerOf(cont?.stepCount) ?? 0;
    for (const s of byStep.keys()) stepCount = Math.max(stepCount, s + 1);
    const y = cont?.yield;
    const provenance = isJsonObject(y) ? y.provenance : undefined;
    const target = isJsonObject(provenance) ? provenance.targetChainId : undefined;
    const targetChain = typeof target === "string" && HEIGHT.test(target) ? Number(target) : null;
    let amount: string | null = null;
    let receiver: string | null = null;
    if (firstOut !== undefined) {
      for (const e of eventsOf(firstOut)) {
        if (e.name === "TRANSFER_XCHAIN" && typeof e.params[1] === "string") {
          receiver = e.params[1];
          amount = amountText(e.params[2]);
        }
      }
    }
    const sourceChain = first?.chainId ?? null;
    const steps = Array.from({ length: stepCount }, (_, step): CrossChainStep => {
      const list = byStep.get(step) ?? [];
      const confirmed = list.find((r) => !r.orphaned);
      const chain = step === 0 ? sourceChain : (list[0]?.chainId ?? targetChain ?? sourceChain);
      if (confirmed !== undefined) {
        return {
          step,
          chain: confirmed.chainId,
          requestKey: confirmed.requestKey,
          status: "confirmed",
          blockHash: confirmed.blockHash,
          height: confirmed.height,
        };
      }
      const pendingKey =
        step > 0 && chain !== null ? this.#pendingStep(chain, pactId, step) : undefined;
      if (pendingKey !== undefined) {
        return {
          step,
          chain,
          requestKey: pendingKey,
          status: "pending",
          blockHash: null,
          height: null,
        };
      }
      const orphaned = list[0];
      if (orphaned !== undefined) {
        return {
          step,
          chain: orphaned.chainId,
          requestKey: orphaned.requestKey,
          status: "orphaned",
          blockHash: orphaned.blockHash,
          height: orphaned.height,
        };
      }
      return {
        step,
        chain,
        requestKey: null,
        status: "missing",
        blockHash: null,
        height: null,
      };
    });
    return {
      pactId,
      stepCount,
      sourceChain,
      targetChain,
      amount,
      receiver,
      steps,
      complete: steps.length > 0 && steps.every((s) => s.status === "confirmed"),
    };
  }

  // ---- accounts

  account(account: string): AccountAnswer {
    const chains = this.#store.accountChains(account);
    if (chains.length === 0) {
      throw notFound(
        "account",
        account,
        `account ${JSON.stringify(account)} not found: no transaction or transfer of the best chain names it${this.#catchingUpNote()}`,
      );
    }
    return {
      account,
      chains: chains.map((c) => ({
        chain: c.chainId,
        transfers: c.transfers,
        transactions: c.transactions,
      })),
    };
  }

  /** An account's transfers across chains (or on `chain`), newest first. */
  transfers(account: string, q: Page & { readonly chain?: number | undefined }): TransferPage {
    const store = this.#store;
    if (q.chain !== undefined) this.#blocks.requireChain(q.chain);
    const from = q.next === undefined ? undefined : parseEventCursor(q.next);
    const n = q.limit + 1;
    const rows = [
      ...store.transfers(account, "from", q.chain, from, n),
      ...store.transfers(account, "to", q.chain, from, n),
    ];
    rows.sort(
      (a, b) =>
        b.height - a.height ||
        b.chainId - a.chainId ||
        (a.blockHash < b.blockHash ? 1 : a.blockHash > b.blockHash ? -1 : 0) ||
        b.position - a.position ||
        b.idx - a.idx,
    );
    const unique = rows.filter(
      (r, i) => i === 0 || eventCursor(r) !== eventCursor(rows[i - 1] as IndexTransferRow),
    );
    const more = unique[q.limit];
    return {
      limit: Math.min(unique.length, q.limit),
      items: unique.slice(0, q.limit).map((r) => {
        const fromAccount = r.fromAccount ?? "";
        const toAccount = r.toAccount ?? "";
        return {
          requestKey: r.requestKey,
          chain: r.chainId,
          height: r.height,
          blockHash: r.blockHash,
          creationTime: r.creationTime,
          module: r.module,
          from: fromAccount,
          to: toAccount,
          amount: r.amount,
          direction:
            fromAccount === account && toAccount === account
              ? "self"
              : fromAccount === account
                ? "out"
                : "in",
          crossChain:
            r.pactId !== null && (fromAccount === "" || toAccount === "")
              ? { pactId: r.pactId }
              : null,
        };
      }),
      next: more === undefined ? null : eventCursor(more),
    };
  }

  // ---- modules

  module(name: string): ModuleAnswer {
    const store = this.#store;
    const deployments = store.moduleDeployments(name);
    const chains: ModuleOnChain[] = [];
    const chainIds = [...this.#blocks.cut().keys()].sort((a, b) => a - b);
    for (const chainId of chainIds) {
      const deployed = deployments.find((d) => d.chainId === chainId);
      const deployedIn =
        deployed === undefined
          ? null
          : {
              requestKey: deployed.requestKey,
              height: deployed.height,
              blockHash: deployed.blockHash,
            };
      const record =
        this.#state === undefined
          ? null
          : new SqliteContractStorage(this.#state, chainId, {
              readLimit: NO_TXID_LIMIT,
              writeHeight: 0,
              nextTxId: 0,
              persist: false,
            }).readSys(SysTable.Modules, name);
      if (record !== null) {
        chains.push({
          chain: chainId,
          kind: record.kind,
          hash: record.hash,
          interfaces: [...record.interfaces],
          code: record.code,
          deployedIn,
        });
      } else if (this.#state === undefined && deployedIn !== null) {
        chains.push({
          chain: chainId,
          kind: null,
          hash: null,
          interfaces: [],
          code: null,
          deployedIn,
        });
      }
    }
    if (chains.length === 0) {
      throw notFound(
        "module",
        name,
        `module ${JSON.stringify(name)} not found on any chain${this.#catchingUpNote()}`,
      );
    }
    return { name, chains };
  }

  // ---- search

  /** What `text` names: transactions, blocks, heights, accounts, modules. */
  search(text: string): SearchAnswer {
    const store = this.#store;
    const q = text.trim();
    if (q.length === 0)
      throw badQuery("q", "empty: give a request key, block hash, height, account or module name");
    if (q.length > MAX_QUERY) throw badQuery("q", `longer than ${MAX_QUERY} characters`);
    const results: SearchResult[] = [];
    if (KEY.test(q)) {
      const rows = store.transactionsByKey(q);
      const row = rows[0];
      if (row !== undefined) {
        results.push({
          kind: "transaction",
          requestKey: q,
          chain: row.chainId,
          status: row.orphaned
            ? this.#pending(q) === undefined
              ? "orphaned"
              : "pending"
            : "confirmed",
          height: row.height,
          blockHash: row.blockHash,
        });
      } else {
        const pending = this.#pending(q);
        if (pending !== undefined) {
          results.push({
            kind: "transaction",
            requestKey: q,
            chain: pending.chainId,
            status: "pending",
            height: null,
            blockHash: null,
          });
        }
      }
      const block = store.block(q);
      if (block !== undefined) results.push({ kind: "block", block: blockSummary(block) });
    }
    if (HEIGHT.test(q) && Number.isSafeInteger(Number(q))) {
      const height = Number(q);
      const blocks = store.blocksAtHeight(height).filter((b) => !b.orphaned);
      if (blocks.length > 0)
        results.push({ kind: "height", height, blocks: blocks.map(blockSummary) });
    }
    const accountChains = (a: string) => store.accountChains(a).map((c) => c.chainId);
    const exactAccount = accountChains(q);
    if (exactAccount.length > 0)
      results.push({ kind: "account", account: q, chains: exactAccount });
    const moduleChains = (m: string) =>
      [...new Set(store.moduleDeployments(m).map((d) => d.chainId))].sort((a, b) => a - b);
    const exactModule = moduleChains(q);
    if (exactModule.length > 0) results.push({ kind: "module", name: q, chains: exactModule });
    const accounts = store.accountsStartingWith(q, SEARCH_PREFIX_LIMIT + 1).filter((a) => a !== q);
    for (const a of accounts.slice(0, SEARCH_PREFIX_LIMIT)) {
      results.push({ kind: "account", account: a, chains: accountChains(a) });
    }
    const modules = store.modulesStartingWith(q, SEARCH_PREFIX_LIMIT + 1).filter((m) => m !== q);
    for (const m of modules.slice(0, SEARCH_PREFIX_LIMIT)) {
      const chains = moduleChains(m);
      if (chains.length > 0) results.push({ kind: "module", name: m, chains });
    }
    return { query: q, results };
  }
}
