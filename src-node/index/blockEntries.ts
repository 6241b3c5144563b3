/**
 * What the index records of one block, read from its header and payload
 * (pure; no database): the block row, a row per command (request key,
 * sender, the code's first call, gas, result status, defpact id and step),
 * a row per event (with the parties and amount of `TRANSFER(from, to,
 * amount)`), and the modules and interfaces a successful command deployed.
 *
 * The payload was validated when the block was accepted, but its commands
 * are read here with plain parsers and every member checked: a transaction
 * that is not a command with a result (test payloads) is skipped, never a
 * failure of the whole block.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import type { PayloadWithOutputs } from "../chain/payloadWithOutputs.ts";
import {
  isJsonObject,
  JsonNumber,
  type JsonValue,
  parseJsonExact,
  readJsonMembers,
  stringifyJson,
} from "../command/exactJson.ts";
import { decimalToString } from "../contract/values/decimal.ts";
import { decimalFromJsonNumberText } from "../contract/values/json.ts";
import type {
  IndexBlockRow,
  IndexEventRow,
  IndexModuleRow,
  IndexTxRow,
} from "../store/indexStore.ts";
import { deployedModules } from "./deployedModules.ts";

export type BlockEntries = {
  readonly block: IndexBlockRow;
  readonly transactions: readonly IndexTxRow[];
  readonly events: readonly IndexEventRow[];
  readonly modules: readonly IndexModuleRow[];
};

const decoder = new TextDecoder();

/** The miner account of a payload's miner data (`"NoMiner"` at genesis; `""` when unreadable). */
export function minerAccountOf(minerData: Uint8Array): string {
  try {
    const m = JSON.parse(decoder.decode(minerData)) as unknown;
    if (typeof m === "object" && m !== null && "account" in m && typeof m.account === "string") {
      return m.account;
    }
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    // Not JSON (test payloads): the block still gets a row, with no miner account.
  }
  return "";
}

/** A decimal amount as the contract language prints it, from its JSON form. */
export function amountText(v: JsonValue | undefined): string | null {
  let text: string | undefined;
  if (v instanceof JsonNumber) text = v.text;
  else if (typeof v === "number") text = String(v);
  else if (isJsonObject(v)) {
    const d = v.decimal ?? v.int;
    if (typeof d === "string") text = d;
    else if (d instanceof JsonNumber) text = d.text;
  }
  if (text === undefined) return null;
  const d = decimalFromJsonNumberText(text);
  return d === null ? null : decimalToString(d);
}

/** `namespace.name` or `name` of an event's `module` member. */
function moduleName(m: JsonValue | undefined): string | null {
  if (!isJsonObject(m) || typeof m.name !== "string") return null;
  return typeof m.namespace === "string" ? `${m.namespace}.${m.name}` : m.name;
}

const FIRST_CALL = /\(\s*([^\s()[\]{}"';]+)/;

/** The first function an exec command's code calls (`coin.transfer`), or null. */
export function firstCallOf(code: string): string | null {
  return FIRST_CALL.exec(code)?.[1] ?? null;
}

type ParsedCommand = {
  readonly sender: string;
  readonly code: string | null;
  readonly cont: { readonly pactId: string; readonly step: number } | null;
};

function commandOf(bytes: Uint8Array): ParsedCommand | undefined {
  try {
    const outer = JSON.parse(decoder.decode(bytes)) as unknown;
    if (typeof outer !== "object" || outer === null || !("cmd" in outer)) return undefined;
    if (typeof outer.cmd !== "string") return undefined;
    const cmd = JSON.parse(outer.cmd) as {
      payload?: { exec?: { code?: unknown }; cont?: { pactId?: unknown; step?: unknown } };
      meta?: { sender?: unknown };
    };
    const sender = typeof cmd.meta?.sender === "string" ? cmd.meta.sender : "";
    const exec = cmd.payload?.exec;
    if (exec !== undefined && typeof exec.code === "string") {
      return { sender, code: exec.code, cont: null };
    }
    const cont = cmd.payload?.cont;
    if (cont !== undefined && typeof cont.pactId === "string" && typeof cont.step === "number") {
      return { sender, code: null, cont: { pactId: cont.pactId, step: cont.step } };
    }
    return { sender, code: null, cont: null };
  } catch {
    return undefined;
  }
}

type ParsedOutput = {
  readonly requestKey: string;
  readonly gas: number;
  readonly success: boolean;
  readonly events: readonly JsonValue[];
  readonly continuation: { readonly pactId: string; readonly step: number } | null;
};

function outputOf(bytes: Uint8Array): ParsedOutput | undefined {
  const m = readJsonMembers(decoder.decode(bytes));
  if (m === null) return undefined;
  const reqKey = m.get("reqKey");
  const gas = m.get("gas");
  const result = m.get("result");
  if (reqKey === undefined || gas === undefined || result === undefined) return undefined;
  const key = JSON.parse(reqKey.text) as unknown;
  const gasValue = JSON.parse(gas.text) as unknown;
  if (typeof key !== "string" || typeof gasValue !== "number") return undefined;
  const status = readJsonMembers(result.text)?.get("status")?.text;
  const eventsText = m.get("events")?.text;
  const events = eventsText === undefined ? [] : parseJsonExact(eventsText);
  const contText = m.get("continuation")?.text;
  let continuation: ParsedOutput["continuation"] = null;
  if (contText !== undefined && contText !== "null") {
    const c = JSON.parse(contText) as { pactId?: unknown; step?: unknown };
    if (typeof c.pactId === "string" && typeof c.step === "number") {
      continuation = { pactId: c.pactId, step: c.step };
    }
  }
  return {
    requestKey: key,
    gas: gasValue,
    success: status === '"success"',
    events: Array.isArray(events) ? events : [],
    continuation,
  };
}

/** The index's row of a block itself; `orphaned` for a block off the best chain. */
export function blockRowOf(
  header: BlockHeader,
  payload: PayloadWithOutputs,
  orphaned: boolean,
): IndexBlockRow {
  return {
    hash: header.hash,
    chainId: header.chainId,
    height: header.height,
    parent: header.parent,
    creationTime: header.creationTime,
    miner: minerAccountOf(payload.minerData),
    txCount: payload.transactions.length,
    orphaned,
  };
}

/**
 * The index's rows of the commands at payload positions `from` (inclusive)
 * to `to` (exclusive) of a block, their events and deployed modules: a live
 * block is indexed a part at a time (index/chainIndex.ts).
 */
export function transactionEntries(
  header: BlockHeader,
  payload: PayloadWithOutputs,
  from: number,
  to: number,
): Omit<BlockEntries, "block"> {
  const blockHash = header.hash;
  const chainId = header.chainId;
  const height = header.height;
  const transactions: IndexTxRow[] = [];
  const events: IndexEventRow[] = [];
  const modules: IndexModuleRow[] = [];
  const end = Math.min(to, payload.transactions.length);
  for (let position = Math.max(0, from); position < end; position++) {
    const t = payload.transactions[position] as PayloadWithOutputs["transactions"][number];
    const out = outputOf(t.output);
    if (out === undefined) continue;
    const cmd = commandOf(t.transaction);
    const pact = out.continuation ?? cmd?.cont ?? null;
    transactions.push({
      blockHash,
      position,
      requestKey: out.requestKey,
      chainId,
      height,
      sender: cmd?.sender ?? "",
      firstCall:
        cmd?.code !== null && cmd?.code !== undefined
          ? firstCallOf(cmd.code)
          : cmd?.cont !== null && cmd?.cont !== undefined
            ? "continuation"
            : null,
      gas: out.gas,
      success: out.success,
      pactId: pact?.pactId ?? null,
      step: pact?.step ?? null,
    });
    out.events.forEach((e, idx) => {
      if (!isJsonObject(e) || typeof e.name !== "string") return;
      const module = moduleName(e.module);
      if (module === null) return;
      const params = Array.isArray(e.params) ? (e.params as readonly JsonValue[]) : [];
      const transfer =
        e.name === "TRANSFER" &&
        params.length === 3 &&
        typeof params[0] === "string" &&
        typeof params[1] === "string";
      events.push({
        blockHash,
        position,
        idx,
        chainId,
        height,
        module,
        name: e.name,
        params: stringifyJson(params),
        fromAccount: transfer && params[0] !== "" ? (params[0] as string) : null,
        toAccount: transfer && params[1] !== "" ? (params[1] as string) : null,
        amount: transfer ? amountText(params[2]) : null,
      });
    });
    if (out.success && cmd?.code !== null && cmd?.code !== undefined) {
      for (const name of deployedModules(cmd.code)) {
        modules.push({ name, chainId, blockHash, position, height, requestKey: out.requestKey });
      }
    }
  }
  return { transactions, events, modules };
}

/** The index's rows of a block; `orphaned` for a block off the best chain. */
export function blockEntries(
  header: BlockHeader,
  payload: PayloadWithOutputs,
  orphaned: boolean,
): BlockEntries {
  return {
    block: blockRowOf(header, payload, orphaned),
    ...transactionEntries(header, payload, 0, payload.transactions.length),
  };
}
