/**
 * Full blocks (`GET …/chain/{c}/block`, docs/api.md "Header encodings"): the header object
 * and `payloadWithOutputs`, whose strings are unpadded base64url of UTF-8 JSON: each
 * transaction paired with its output, the miner data and the coinbase result.
 * @module
 */
import { array, type Decoded, decode, record, reject, string } from "../../../api/decode.ts";
import { type BlockHeader, headerAt, type Page, pageOf } from "./headers.ts";
import { commandOfText, resultOfText, type TxCommand, type TxResult } from "./transactions.ts";

export type BlockMiner = {
  readonly account: string;
  readonly predicate: string;
  readonly publicKeys: readonly string[];
};

export type BlockTransaction = { readonly command: TxCommand; readonly result: TxResult };

export type FullBlock = {
  readonly header: BlockHeader;
  readonly transactions: readonly BlockTransaction[];
  readonly miner: BlockMiner | null;
  /** The coinbase's result (the miner's reward and its event). */
  readonly coinbase: TxResult | null;
};

const B64URL = /^[A-Za-z0-9_-]*$/;

/** Unpadded base64url of UTF-8 text → the text; throws through `reject`. */
export function base64UrlText(s: string, path: string): string {
  if (!B64URL.test(s) || s.length % 4 === 1) return reject(path, "base64url text");
  const b64 = s.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return reject(path, "UTF-8 text");
  }
}

function minerOf(text: string, path: string): BlockMiner | null {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    return reject(path, "miner data as JSON");
  }
  if (typeof j !== "object" || j === null) return null;
  const o = j as Record<string, unknown>;
  if (typeof o.account !== "string") return null;
  const keys = Array.isArray(o["public-keys"]) ? o["public-keys"] : [];
  return {
    account: o.account,
    predicate: typeof o.predicate === "string" ? o.predicate : "",
    publicKeys: keys.filter((k): k is string => typeof k === "string"),
  };
}

export function blockAt(x: unknown, path: string): FullBlock {
  const o = record(x, path);
  const header = headerAt(o.header, `${path}.header`);
  const p = record(o.payloadWithOutputs, `${path}.payloadWithOutputs`);
  const pp = `${path}.payloadWithOutputs`;
  const transactions = array(p.transactions, `${pp}.transactions`).map((pair, i) => {
    const tp = `${pp}.transactions[${i}]`;
    const [tx, out] = array(pair, tp);
    return {
      command: commandOfText(base64UrlText(string(tx, `${tp}[0]`), `${tp}[0]`), `${tp}[0]`),
      result: resultOfText(base64UrlText(string(out, `${tp}[1]`), `${tp}[1]`), `${tp}[1]`),
    };
  });
  const minerText = base64UrlText(string(p.minerData, `${pp}.minerData`), `${pp}.minerData`);
  const coinbaseText = base64UrlText(string(p.coinbase, `${pp}.coinbase`), `${pp}.coinbase`);
  // The coinbase is shown when it reads as a result; genesis blocks carry other text.
  const coinbase = decode(coinbaseText, (t) =>
    resultOfText(string(t, "coinbase"), `${pp}.coinbase`),
  );
  return {
    header,
    transactions,
    miner: minerOf(minerText, `${pp}.minerData`),
    coinbase: coinbase.ok ? coinbase.value : null,
  };
}

export function parseBlockPage(raw: unknown): Decoded<Page<FullBlock>> {
  return decode(raw, (x) => pageOf(x, blockAt));
}
