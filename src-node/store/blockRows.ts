/**
 * Row mappers of blocks.sqlite: the only place that turns rows (typed
 * `unknown` by the driver) into domain values. A row of the wrong shape is
 * a corrupt file or a bug, never user input, so it fails as STORE_CORRUPT.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import { decodeBlockHeader } from "../chain/blockHeaderBinary.ts";
import { type Hash32, hash32FromBytes } from "../encoding/hash32.ts";
import { StoreError, StoreErrorCode } from "./errors.ts";
import { headerObjectText } from "./headerObjectText.ts";

function corrupt(reason: string): never {
  throw new StoreError(
    { code: StoreErrorCode.Corrupt, path: "blocks.sqlite", reason },
    `blocks.sqlite: ${reason}`,
  );
}

function record(row: unknown): Record<string, unknown> {
  if (typeof row !== "object" || row === null) corrupt("a row is not an object");
  return row as Record<string, unknown>;
}

/** A BLOB column. */
export function blobValue(value: unknown, column: string): Buffer {
  if (!Buffer.isBuffer(value)) corrupt(`${column} is not a blob`);
  return value;
}

/** An INTEGER column (within JS's safe range). */
export function integerValue(value: unknown, column: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    corrupt(`${column} is not an integer`);
  }
  return value;
}

/** A TEXT column. */
export function textValue(value: unknown, column: string): string {
  if (typeof value !== "string") corrupt(`${column} is not text`);
  return value;
}

/** A 32-byte hash column. */
export function hashValue(value: unknown, column: string): Hash32 {
  const b = blobValue(value, column);
  if (b.length !== 32) corrupt(`${column} is not 32 bytes`);
  return hash32FromBytes(b, column);
}

/** The stored binary header (written by the node itself, so its hash is not recomputed). */
export function headerFromBlob(value: unknown): BlockHeader {
  try {
    return decodeBlockHeader(blobValue(value, "header"), { verifyHash: false });
  } catch (e) {
    if (e instanceof StoreError) throw e;
    return corrupt(`a stored header does not decode: ${e instanceof Error ? e.message : e}`);
  }
}

export type HashHeightRow = { readonly hash: Hash32; readonly height: number };

export function hashHeightRow(row: unknown): HashHeightRow {
  const r = record(row);
  return { hash: hashValue(r.hash, "hash"), height: integerValue(r.height, "height") };
}

/** A stored header: its bytes, hash and object text, decoded only when `header` is read. */
export type HeaderRow = {
  readonly hash: Hash32;
  readonly bytes: Buffer;
  /** The object encoding's JSON text (store/headerObjectText.ts), as stored. */
  readonly objectText: string;
  readonly header: BlockHeader;
};

/** Maps a row with `hash` and `header` columns; base64 pages never pay for decoding. */
export function headerRow(row: unknown): HeaderRow {
  const r = record(row);
  return headerRowFrom(hashValue(r.hash, "hash"), blobValue(r.header, "header"), r.header_object);
}

/** A {@link HeaderRow} of its columns' values (`stored`: the object text column, maybe null). */
export function headerRowFrom(hash: Hash32, bytes: Buffer, stored: unknown): HeaderRow {
  let decoded: BlockHeader | undefined;
  let text: string | undefined = typeof stored === "string" ? stored : undefined;
  return {
    hash,
    bytes,
    get objectText() {
      // Selected without the column (or a row the migration has not filled): computed.
      text ??= headerObjectText(this.header);
      return text;
    },
    get header() {
      decoded ??= headerFromBlob(bytes);
      return decoded;
    },
  };
}

export type PayloadRow = {
  readonly transactionsHash: Hash32;
  readonly outputsHash: Hash32;
  readonly minerData: Buffer;
  readonly coinbase: Buffer;
  readonly transactionCount: number;
};

export function payloadRow(row: unknown): PayloadRow {
  const r = record(row);
  return {
    transactionsHash: hashValue(r.transactions_hash, "transactions_hash"),
    outputsHash: hashValue(r.outputs_hash, "outputs_hash"),
    minerData: blobValue(r.miner_data, "miner_data"),
    coinbase: blobValue(r.coinbase, "coinbase"),
    transactionCount: integerValue(r.transaction_count, "transaction_count"),
  };
}

export type TransactionRow = { readonly transaction: Buffer; readonly output: Buffer };

export function transactionRow(row: unknown): TransactionRow {
  const r = record(row);
  return {
    transaction: blobValue(r.transaction_bytes, "transaction_bytes"),
    output: blobValue(r.output_bytes, "output_bytes"),
  };
}

/**
 * A stored block as a page sends it: the header row (bytes, object text) and
 * the payload's stored parts, never decoded into a payload object.
 */
export type StoredBlock = {
  readonly header: HeaderRow;
  readonly payloadHash: Hash32;
  readonly payload: PayloadRow;
  readonly transactions: readonly TransactionRow[];
};

/**
 * A tuple of headers joined with payloads, columns in this order: hash,
 * header, the object text (header_texts.object_json), payload_hash, transactions_hash, outputs_hash,
 * miner_data, coinbase, transaction_count.
 */
export function storedBlockTuple(
  r: readonly unknown[],
): Omit<StoredBlock, "transactions"> & { transactions: TransactionRow[] } {
  return {
    header: headerRowFrom(hashValue(r[0], "hash"), blobValue(r[1], "header"), r[2]),
    payloadHash: hashValue(r[3], "payload_hash"),
    payload: {
      transactionsHash: hashValue(r[4], "transactions_hash"),
      outputsHash: hashValue(r[5], "outputs_hash"),
      minerData: blobValue(r[6], "miner_data"),
      coinbase: blobValue(r[7], "coinbase"),
      transactionCount: integerValue(r[8], "transaction_count"),
    },
    transactions: [],
  };
}

/** A tuple (transaction_bytes, output_bytes). */
export function transactionTuple(r: readonly unknown[]): TransactionRow {
  return {
    transaction: blobValue(r[0], "transaction_bytes"),
    output: blobValue(r[1], "output_bytes"),
  };
}

export type ChainHashRow = { readonly chainId: number; readonly hash: Hash32 };

export function chainHashRow(row: unknown): ChainHashRow {
  const r = record(row);
  return { chainId: integerValue(r.chain_id, "chain_id"), hash: hashValue(r.hash, "hash") };
}

export type MetaRow = { readonly key: string; readonly value: string };

export function metaRow(row: unknown): MetaRow {
  const r = record(row);
  return { key: textValue(r.key, "key"), value: textValue(r.value, "value") };
}
