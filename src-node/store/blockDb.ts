/**
 * `BlockDb`: the block database of one network (blocks.sqlite). It
 * - initialises a new file with the version's genesis headers and payloads
 *   (every chain the version ever has; chains that join at a graph change
 *   enter the cut later, reference chainweb-api.md §5.1), and on later opens
 *   checks that the file belongs to this network and genesis;
 * - inserts blocks after checking every header rule (chain/headerValidation.ts)
 *   and the payload's hashes; a rejected block throws the ChainError of the
 *   first rule it breaks;
 * - keeps every accepted block, side branches included, and the best cut:
 *   the heaviest of the current cut and the cut each new block makes with it
 *   (cutWithBlock.ts; between cuts of equal weight, the tie-break of chain/cutOrder.ts). A block, its payload and a
 *   cut switch are written in one transaction;
 * - tells listeners about every block added to the best cut;
 * - before storing a block, has it executed by the {@link BlockExecutor}
 *   set with {@link BlockDb.setExecutor} (exec/chainExecutor.ts): a block
 *   whose payload does not execute to its stated outputs is rejected, with
 *   the executor's error, and nothing is stored.
 * Reads for the HTTP API are in blockPages.ts.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import { type Cut, genesisCut } from "../chain/cut.ts";
import { cutBraidingProblems } from "../chain/cutBraiding.ts";
import { compareCuts, orderOf } from "../chain/cutOrder.ts";
import { ChainError, ChainErrorCode } from "../chain/errors.ts";
import { genesisHeadersOf } from "../chain/genesisHeader.ts";
import { buildGenesisPayload } from "../chain/genesisPayload.ts";
import { isPayloadHashed } from "../chain/hashedHere.ts";
import { validateHeader } from "../chain/headerValidation.ts";
import { limitCut } from "../chain/limitCut.ts";
import type { NetworkVersion } from "../chain/networkVersion.ts";
import { buildPayloadWithOutputs, type PayloadWithOutputs } from "../chain/payloadWithOutputs.ts";
import type { Hash32 } from "../encoding/hash32.ts";
import { BlockStore } from "./blockStore.ts";
import { cutDifference, cutWithBlock, extended } from "./cutWithBlock.ts";
import { StoreError, StoreErrorCode } from "./errors.ts";
import type { HeaderLookups } from "./headerLookups.ts";
import type { OpenDatabaseOptions } from "./sqlDatabase.ts";

/** A block: its header and its payload with outputs. */
export type Block = { readonly header: BlockHeader; readonly payload: PayloadWithOutputs };

/** A change of the best cut: the new cut and the blocks it added, ascending by height. */
export type CutChange = { readonly cut: Cut; readonly added: readonly BlockHeader[] };

export type InsertResult = {
  /** `known`: the block was stored already; nothing changed. */
  readonly status: "inserted" | "known";
  readonly cutChanged: boolean;
  /** Blocks added to the best cut by this insert, ascending by height. */
  readonly added: readonly BlockHeader[];
};

/**
 * Executes blocks before they are accepted. `executeBlock` runs the block
 * on its parent's state (the parent is stored already) and throws to reject
 * it; it may leave the state at the block even when the block does not join
 * the best cut (the executor follows the best cut through `onCutChange`).
 */
export interface BlockExecutor {
  executeBlock(block: Block): void;
}

/** Where listener failures and other non-fatal events are reported. */
export type BlockDbLog = {
  warn(message: string, fields?: Record<string, unknown>): void;
};

export type BlockDbOptions = OpenDatabaseOptions & {
  /** The blocks.sqlite file. */
  readonly path: string;
  readonly version: NetworkVersion;
  /** Genesis payload of each chain (default: the genesis payload without transactions). */
  readonly genesisPayload?: ((chainId: number) => PayloadWithOutputs) | undefined;
  /** The clock for "not in the future", µs since the UNIX epoch (default: the system clock). */
  readonly now?: (() => number) | undefined;
  readonly log?: BlockDbLog | undefined;
};

const META_NETWORK = "network";
const META_VERSION_CODE = "versionCode";

function systemNowMicros(): number {
  return Date.now() * 1000;
}

export class BlockDb {
  readonly version: NetworkVersion;
  readonly store: BlockStore;
  /** Genesis header of every chain the version ever has. */
  readonly genesis: ReadonlyMap<number, BlockHeader>;
  readonly #now: () => number;
  readonly #log: BlockDbLog | undefined;
  readonly #listeners = new Set<(change: CutChange) => void>();
  #cut: Cut;
  #executor: BlockExecutor | undefined;

  private constructor(
    store: BlockStore,
    options: BlockDbOptions,
    genesis: ReadonlyMap<number, BlockHeader>,
    cut: Cut,
  ) {
    this.store = store;
    this.version = options.version;
    this.genesis = genesis;
    this.#now = options.now ?? systemNowMicros;
    this.#log = options.log;
    this.#cut = cut;
  }

  /**
   * Opens (creating and initialising when new) the block database.
   * @throws {StoreError} STORE_OPEN_FAILED, STORE_SCHEMA_TOO_NEW,
   *   STORE_NETWORK_MISMATCH, STORE_GENESIS_MISMATCH, STORE_CORRUPT,
   *   STORE_INVALID_BLOCK (a stored block an older Weft accepted, migration 5).
   */
  static open(options: BlockDbOptions): BlockDb {
    const { version } = options;
    const payloadOf = options.genesisPayload ?? emptyGenesisPayload();
    const payloads = new Map(version.chainIds.map((c) => [c, payloadOf(c)] as const));
    const genesis = genesisHeadersOf(
      version,
      (c) => (payloads.get(c) as PayloadWithOutputs).payloadHash,
    );
    const store = BlockStore.open(options.path, options);
    try {
      const network = store.meta(META_NETWORK);
      if (network === undefined) {
        initialise(store, version, genesis, payloads);
      } else if (network !== version.name) {
        throw new StoreError(
          {
            code: StoreErrorCode.NetworkMismatch,
            path: options.path,
            expected: version.name,
            actual: network,
          },
          `${options.path} holds the blocks of network ${network}, not ${version.name}`,
        );
      }
      checkGenesis(store, options.path, genesis);
      return new BlockDb(store, options, genesis, loadCut(store, options.path, version));
    } catch (e) {
      store.close();
      throw e;
    }
  }

  /** Sets (or removes) the executor every inserted block must pass. */
  setExecutor(executor: BlockExecutor | undefined): void {
    this.#executor = executor;
  }

  close(): void {
    this.#executor = undefined;
    this.#listeners.clear();
    this.store.close();
  }

  get isOpen(): boolean {
    return this.store.db.isOpen;
  }

  /** The best cut. */
  cut(): Cut {
    return this.#cut;
  }

  /** The best cut limited to cut height `maxCutHeight` (reference `/cut?maxheight`). */
  cutAtMost(maxCutHeight: number): Cut {
    return limitCut(this.#cut, this.version, maxCutHeight, (h, height) =>
      this.ancestorAt(h, height),
    );
  }

  /** Whether `chainId` is one of the network's chains (ever). */
  hasChain(chainId: number): boolean {
    return this.genesis.has(chainId);
  }

  /**
   * @throws {StoreError} STORE_UNKNOWN_CHAIN when the network has no chain `chainId`.
   */
  requireChain(chainId: number): void {
    if (!this.hasChain(chainId)) {
      throw new StoreError(
        { code: StoreErrorCode.UnknownChain, chainId },
        `chain ${chainId} is not a chain of ${this.version.name}`,
      );
    }
  }

  header(hash: Hash32): BlockHeader | undefined {
    return this.store.header(hash);
  }

  /** The header with this hash if it is on `chainId`. */
  headerOnChain(chainId: number, hash: Hash32): BlockHeader | undefined {
    const h = this.store.header(hash);
    return h !== undefined && h.chainId === chainId ? h : undefined;
  }

  payload(payloadHash: Hash32): PayloadWithOutputs | undefined {
    return this.store.payload(payloadHash);
  }

  /** The ancestor (or the header itself) at `height`, using the best-chain index where it can. */
  ancestorAt(header: BlockHeader, height: number): BlockHeader | undefined {
    return this.store.ancestorAt(header, height);
  }

  /** How many cut listeners are registered (a stream that ended must not leave one behind). */
  get cutListenerCount(): number {
    return this.#listeners.size;
  }

  /** Subscribes to changes of the best cut; returns the unsubscribe function. */
  onCutChange(listener: (change: CutChange) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * Validates and stores a block; moves the best cut when the block makes a
   * heavier one. Inserting a stored block again changes nothing.
   * @throws {ChainError} the first header rule the block breaks (CHAIN_PARENT_UNKNOWN,
   *   CHAIN_BAD_POW, CHAIN_WRONG_TARGET, …), CHAIN_PAYLOAD_HASH_MISMATCH for a
   *   payload whose stated hashes are not its own.
   */
  insertBlock(block: Block): InsertResult {
    const h = block.header;
    if (h.versionCode !== this.version.code) {
      throw new ChainError(
        {
          code: ChainErrorCode.WrongVersion,
          field: "versionCode",
          expected: String(this.version.code),
          actual: String(h.versionCode),
        },
        `versionCode: the block is not of network ${this.version.name}`,
      );
    }
    if (this.store.hasHeader(h.hash)) return { status: "known", cutChanged: false, added: [] };
    const payload = checkedPayload(block.payload);
    const adjacentParents = new Map<number, BlockHeader>();
    for (const a of h.adjacents) {
      const x = this.store.header(a.hash);
      if (x !== undefined) adjacentParents.set(a.chainId, x);
    }
    validateHeader({
      header: h,
      parent: this.store.header(h.parent),
      adjacentParents,
      now: this.#now(),
      payloadHash: payload.payloadHash,
    });
    this.#executor?.executeBlock({ header: h, payload });

    const lookups = this.#lookupsWith(h);
    const current = this.#cut;
    let next =
      extended(current, h, this.version, this.genesis) ??
      cutWithBlock(current, h, this.version, this.genesis, lookups);
    // Only a preferred cut is taken: heavier, or of equal weight and first by the tie-break.
    if (next !== undefined && compareCuts(orderOf(next), orderOf(current)) <= 0) next = undefined;
    const diff =
      next === undefined ? undefined : cutDifference(current, next, this.version, lookups);

    try {
      this.store.transaction(() => {
        this.store.insertPayload(payload);
        this.store.insertHeader(h);
        if (next !== undefined && diff !== undefined) {
          const moved = next;
          this.store.updateCutHeads(
            [...moved.values()].filter((head) => current.get(head.chainId)?.hash !== head.hash),
            [...current.keys()].filter((c) => !moved.has(c)),
          );
          for (const [chainId, { keep, added }] of diff) {
            // Nothing above `keep` when the chain only grows on its head.
            if (keep < (current.get(chainId)?.height ?? Number.POSITIVE_INFINITY)) {
              this.store.truncateBestChain(chainId, keep);
            }
            for (const b of added) this.store.setBestChain(b);
          }
        }
      });
    } catch (e) {
      this.store.forget(h.hash);
      throw e;
    }
    if (next === undefined || diff === undefined) {
      return { status: "inserted", cutChanged: false, added: [] };
    }
    this.#cut = next;
    const added = [...diff.values()]
      .flatMap((d) => d.added)
      .sort((a, b) => a.height - b.height || a.chainId - b.chainId);
    this.#emit({ cut: next, added });
    return { status: "inserted", cutChanged: true, added };
  }

  /** Lookups that also see `pending` (a block being inserted, not yet stored). */
  #lookupsWith(pending: BlockHeader): HeaderLookups {
    const header = (hash: Hash32) => (hash === pending.hash ? pending : this.store.header(hash));
    return {
      header,
      children: (hash) => (hash === pending.hash ? [] : this.store.children(hash)),
      ancestorAt: (h, height) => {
        if (h.hash !== pending.hash) return this.ancestorAt(h, height);
        if (height === h.height) return h;
        const parent = this.store.header(h.parent);
        return parent === undefined ? undefined : this.ancestorAt(parent, height);
      },
    };
  }

  #emit(change: CutChange): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch (e) {
        this.#log?.warn("cut listener failed", {
          error: e instanceof Error ? e.message : String(e),
        });
      }
    }
  }
}

function emptyGenesisPayload(): (chainId: number) => PayloadWithOutputs {
  const p = buildGenesisPayload([]);
  return () => p;
}

/**
 * The payload with its hashes recomputed from its contents.
 * @throws {ChainError} CHAIN_PAYLOAD_HASH_MISMATCH when a stated hash differs.
 */
function checkedPayload(p: PayloadWithOutputs): PayloadWithOutputs {
  // Built (or parsed and checked) here: its hashes are its contents' already.
  if (isPayloadHashed(p)) return p;
  const built = buildPayloadWithOutputs(p);
  for (const field of ["transactionsHash", "outputsHash", "payloadHash"] as const) {
    if (built[field] !== p[field]) {
      throw new ChainError(
        {
          code: ChainErrorCode.PayloadHashMismatch,
          field,
          expected: built[field],
          actual: p[field],
        },
        `${field}: the payload says ${p[field]}, its contents hash to ${built[field]}`,
      );
    }
  }
  return built;
}

function initialise(
  store: BlockStore,
  version: NetworkVersion,
  genesis: ReadonlyMap<number, BlockHeader>,
  payloads: ReadonlyMap<number, PayloadWithOutputs>,
): void {
  store.transaction(() => {
    store.setMeta(META_NETWORK, version.name);
    store.setMeta(META_VERSION_CODE, String(version.code));
    for (const [chainId, header] of genesis) {
      store.insertPayload(payloads.get(chainId) as PayloadWithOutputs);
      store.insertHeader(header);
      store.setBestChain(header);
    }
    store.replaceCutHeads([...genesisCut(version, genesis).values()]);
  });
}

function checkGenesis(
  store: BlockStore,
  path: string,
  genesis: ReadonlyMap<number, BlockHeader>,
): void {
  for (const [chainId, header] of genesis) {
    if (store.hasHeader(header.hash)) continue;
    const actual = store.bestChainHash(chainId, header.height) ?? "none";
    throw new StoreError(
      { code: StoreErrorCode.GenesisMismatch, path, chainId, expected: header.hash, actual },
      `${path}: the genesis block of chain ${chainId} is ${actual}, this Weft expects ${header.hash}; the file was made with other genesis data`,
    );
  }
}

function loadCut(store: BlockStore, path: string, version: NetworkVersion): Cut {
  const corrupt = (reason: string): never => {
    throw new StoreError({ code: StoreErrorCode.Corrupt, path, reason }, `${path}: ${reason}`);
  };
  const heads = store.cutHeads().map((row) => {
    const h = store.header(row.hash);
    if (h === undefined || h.chainId !== row.chainId) {
      return corrupt(`the cut names a missing block on chain ${row.chainId}`);
    }
    return h;
  });
  if (heads.length === 0) corrupt("no cut stored");
  const cut = new Map(heads.map((h) => [h.chainId, h] as const));
  const [problem] = cutBraidingProblems(cut, version);
  if (problem !== undefined) corrupt(`the stored cut is not braided: ${problem}`);
  return cut;
}
