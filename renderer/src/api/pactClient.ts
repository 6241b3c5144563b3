/**
 * The client of the contract command endpoints (`{base}/chain/{c}/pact/api/v1/…`: `/local`,
 * `/send`, `/poll`) for the wallet, on the same origin and with the same failure values as
 * `nodeClient.ts`. Replies are read as exact JSON, so no number in a result goes through a
 * double.
 * @module
 */
import type { Command } from "../../../src-node/command/commandTypes.ts";
import { type JsonValue, readJsonExact } from "../../../src-node/command/exactJson.ts";
import { ClientErrorCode, type ClientResult } from "./clientError.ts";
import {
  type CommandResultView,
  type PreflightView,
  parseCommandResult,
  parsePollResults,
  parsePreflight,
  parseRequestKeys,
} from "./commandResult.ts";
import type { Decoded } from "./decode.ts";
import { type FetchLike, fetchText } from "./nodeClient.ts";

export type PactClient = {
  /** `POST …/local` (no signatures checked: reads and simulations). */
  local(chainId: number, command: Command): Promise<ClientResult<CommandResultView>>;
  /** `POST …/local?preflight=true&signatureVerification=true`: a signed command, fully gassed. */
  preflight(chainId: number, command: Command): Promise<ClientResult<PreflightView>>;
  /** `POST …/send`: the request keys, one per command. */
  send(chainId: number, commands: readonly Command[]): Promise<ClientResult<readonly string[]>>;
  /** `POST …/poll`: results of the keys already in a block. */
  poll(
    chainId: number,
    requestKeys: readonly string[],
  ): Promise<ClientResult<ReadonlyMap<string, CommandResultView>>>;
  /**
   * `POST …/spv` on the source chain: the proof (a base64url string) that the command of
   * `requestKey` ran, for `targetChainId`. The node may wait for the target chain to grow,
   * so this call waits up to `timeoutMs` (default 60 s).
   */
  spv(
    chainId: number,
    requestKey: string,
    targetChainId: number,
    timeoutMs?: number,
  ): Promise<ClientResult<string>>;
};

export type PactClientOptions = {
  /** The API base on the page's origin (`NodeClient.baseUrl`). */
  readonly baseUrl: string;
  readonly fetch: FetchLike;
  /** Per request; default 10 s. */
  readonly timeoutMs?: number;
};

export function createPactClient(options: PactClientOptions): PactClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const url = (chainId: number, endpoint: string) =>
    `${options.baseUrl}/chain/${chainId}/pact/api/v1/${endpoint}`;
  const post = async <T>(
    target: string,
    body: unknown,
    parse: (raw: JsonValue) => Decoded<T>,
    waitMs = timeoutMs,
  ): Promise<ClientResult<T>> => {
    const text = await fetchText(
      options.fetch,
      target,
      {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
      },
      waitMs,
    );
    if (!text.ok) return text;
    const json = readJsonExact(text.value);
    const parsed = json.ok ? parse(json.value) : { ok: false as const, error: "not JSON" };
    return parsed.ok
      ? { ok: true, value: parsed.value }
      : {
          ok: false,
          error: { code: ClientErrorCode.BadResponse, url: target, reason: parsed.error },
        };
  };
  return {
    local: (chainId, command) =>
      post(url(chainId, "local?signatureVerification=false"), command, parseCommandResult),
    preflight: (chainId, command) =>
      post(
        url(chainId, "local?preflight=true&signatureVerification=true"),
        command,
        parsePreflight,
      ),
    send: (chainId, commands) => post(url(chainId, "send"), { cmds: commands }, parseRequestKeys),
    poll: (chainId, requestKeys) => post(url(chainId, "poll"), { requestKeys }, parsePollResults),
    spv: (chainId, requestKey, targetChainId, waitMs = 60_000) =>
      post(
        url(chainId, "spv"),
        { requestKey, targetChainId: String(targetChainId) },
        (raw) =>
          typeof raw === "string" && raw !== ""
            ? { ok: true, value: raw }
            : { ok: false, error: "the proof is not a string" },
        waitMs,
      ),
  };
}
