/**
 * The page's side of the vault worker: starts it (Vite bundles `vaultWorker.ts` as a module
 * worker), sends typed requests and resolves each to its answer, parsed; the worker's
 * `locked` events reach `onLocked`. The transport is injected so tests can run the worker's
 * logic in the same thread.
 * @module
 */
import { parseKeystoreFile } from "../../../../../src-node/walletFiles/keystoreFile.ts";
import { array, type Decoded, decode, record, reject, string } from "../../../api/decode.ts";
import {
  parseVaultMessage,
  type VaultErrorCodeValue,
  type VaultFailure,
  type VaultRequest,
  type VaultResults,
} from "./vaultProtocol.ts";

/** What the client needs of a Worker. */
export type VaultTransport = {
  postMessage(message: unknown): void;
  onmessage: ((e: { data: unknown }) => void) | null;
  terminate(): void;
};

/** A failed vault request. */
export class VaultRequestError extends Error {
  readonly code: VaultErrorCodeValue;
  readonly retryAfterMs: number | undefined;
  constructor(failure: VaultFailure) {
    super(failure.message);
    this.name = "VaultRequestError";
    this.code = failure.code;
    this.retryAfterMs = failure.retryAfterMs;
  }
}

function words(x: unknown): { words: readonly string[] } {
  const r = record(x, "result");
  return { words: array(r.words, "result.words").map((w, i) => string(w, `result.words[${i}]`)) };
}

function keystoreResult(x: unknown) {
  const r = record(x, "result");
  const k = parseKeystoreFile(r.keystore);
  return { keystore: k.ok ? k.value : reject("result.keystore", k.error) };
}

const empty = (): Record<string, never> => ({});

/** One parser per operation: the worker's answers are parsed like any other input. */
const RESULT_PARSERS: { [K in keyof VaultResults]: (raw: unknown) => VaultResults[K] } = {
  generate: words,
  revealPhrase: words,
  confirmWords: (x) => {
    const r = record(x, "result");
    if (typeof r.correct !== "boolean") reject("result.correct", "true or false");
    return { correct: r.correct as boolean };
  },
  create: keystoreResult,
  addPhraseKeys: keystoreResult,
  importKey: keystoreResult,
  removeKey: keystoreResult,
  changePassword: keystoreResult,
  unlock: empty,
  lock: empty,
  activity: empty,
  setIdle: empty,
  sign: (x) => {
    const s = string(record(x, "result").signature, "result.signature");
    return {
      signature: /^[0-9a-f]{128}$/.test(s) ? s : reject("result.signature", "128 hex digits"),
    };
  },
  phraseKeys: (x) => ({
    keys: array(record(x, "result").keys, "result.keys").map((k, i) => {
      const o = record(k, `result.keys[${i}]`);
      const publicKey = string(o.publicKey, `result.keys[${i}].publicKey`);
      if (!/^[0-9a-f]{64}$/.test(publicKey)) reject(`result.keys[${i}].publicKey`, "64 hex digits");
      if (typeof o.index !== "number") reject(`result.keys[${i}].index`, "a number");
      return { index: o.index as number, publicKey };
    }),
  }),
};

export type VaultClient = {
  request<R extends VaultRequest>(r: R): Promise<VaultResults[R["op"]]>;
  close(): void;
};

/** A client over `transport`; `onLocked` hears the worker's idle locks. */
export function createVaultClient(transport: VaultTransport, onLocked: () => void): VaultClient {
  let next = 1;
  const waiting = new Map<
    number,
    { op: VaultRequest["op"]; resolve: (v: unknown) => void; reject: (e: Error) => void }
  >();
  transport.onmessage = (e) => {
    const m = parseVaultMessage(e.data);
    if (!m.ok) return;
    const msg = m.value;
    if ("event" in msg) {
      onLocked();
      return;
    }
    const w = waiting.get(msg.id);
    if (w === undefined) return;
    waiting.delete(msg.id);
    if (!msg.ok) {
      w.reject(new VaultRequestError(msg.error));
      return;
    }
    const parse = RESULT_PARSERS[w.op] as (raw: unknown) => unknown;
    const parsed: Decoded<unknown> = decode(msg.result, parse);
    if (parsed.ok) w.resolve(parsed.value);
    else w.reject(new Error(`the vault's answer does not parse: ${parsed.error}`));
  };
  return {
    request<R extends VaultRequest>(r: R): Promise<VaultResults[R["op"]]> {
      const id = next++;
      return new Promise((resolve, rejectPromise) => {
        waiting.set(id, {
          op: r.op,
          resolve: resolve as (v: unknown) => void,
          reject: rejectPromise,
        });
        transport.postMessage({ ...r, id });
      });
    },
    close() {
      transport.terminate();
      for (const w of waiting.values()) w.reject(new Error("the vault was closed"));
      waiting.clear();
    },
  };
}
