/**
 * Account discovery after a restore (issue 17 "Keys"): which of the phrase's keys 0–19 have a
 * `k:` account on any chain. One `/local` per chain asks the coin contract about all the keys
 * at once (`coin.details` inside `try`, so a missing account is `false`, not a failure); the
 * chains are asked in parallel, one request each, never a storm.
 * @module
 */
import { cmdOf } from "../../../../../src-node/command/buildCommand.ts";
import { commandModel } from "../../../../../src-node/command/commandModel.ts";
import type { ClientResult } from "../../../api/clientError.ts";
import { array, type Decoded, decode, record, reject, string } from "../../../api/decode.ts";

/** How many phrase keys restore looks at (m/44'/626'/0' … 19'). */
export const DISCOVERY_KEYS = 20;

/** What discovery needs of the node client. */
export type LocalCaller = (chainId: number, command: unknown) => Promise<ClientResult<unknown>>;

/** The Pact expression: for each account, whether the coin contract has it on this chain. */
export function discoveryCode(accounts: readonly string[]): string {
  const list = accounts.map((a) => JSON.stringify(a)).join(" ");
  return `(map (lambda (a) (try false (let ((d (coin.details a))) true))) [${list}])`;
}

/** The unsigned /local command asking `chainId` about `accounts`. */
export function discoveryCommand(
  accounts: readonly string[],
  chainId: number,
  networkId: string,
  nowSeconds: number,
): { cmd: string; hash: string; sigs: [] } {
  const cmd = cmdOf({
    payload: { exec: { code: discoveryCode(accounts), data: {} } },
    meta: {
      chainId: String(chainId),
      sender: "",
      gasLimit: 100_000,
      gasPrice: "0.00000001",
      ttl: 600,
      creationTime: Math.floor(nowSeconds),
    },
    signers: [],
    networkId,
    nonce: `discovery-${chainId}-${Math.floor(nowSeconds)}`,
  });
  return { cmd, hash: commandModel.requestKeyOf(cmd), sigs: [] };
}

/** The list of booleans of a successful /local answer, one per account asked. */
export function parseDiscoveryAnswer(raw: unknown, count: number): Decoded<readonly boolean[]> {
  return decode(raw, (x) => {
    const result = record(record(x, "answer").result, "answer.result");
    const status = string(result.status, "answer.result.status");
    if (status !== "success") {
      const err = result.error;
      const message =
        typeof err === "object" && err !== null && "message" in err ? String(err.message) : status;
      reject("answer.result", `success (the node said: ${message})`);
    }
    const data = array(result.data, "answer.result.data");
    if (data.length !== count) reject("answer.result.data", `${count} values`);
    return data.map((v, i) =>
      typeof v === "boolean" ? v : reject(`answer.result.data[${i}]`, "true or false"),
    );
  });
}

/**
 * The indices (into `accounts`) that exist on at least one of `chains`.
 * @throws {Error} naming the chain whose answer failed.
 */
export async function discoverAccounts(
  local: LocalCaller,
  accounts: readonly string[],
  chains: readonly number[],
  networkId: string,
  nowSeconds: number,
): Promise<Set<number>> {
  const answers = await Promise.all(
    chains.map(async (chain) => {
      const r = await local(chain, discoveryCommand(accounts, chain, networkId, nowSeconds));
      if (!r.ok) throw new Error(`chain ${chain}: the node did not answer (${r.error.code})`);
      const parsed = parseDiscoveryAnswer(r.value, accounts.length);
      if (!parsed.ok) throw new Error(`chain ${chain}: ${parsed.error}`);
      return parsed.value;
    }),
  );
  const found = new Set<number>();
  for (const flags of answers) {
    for (const [i, f] of flags.entries()) if (f) found.add(i);
  }
  return found;
}
