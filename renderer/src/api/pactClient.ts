/**
 * The contract command endpoints (`/chain/{c}/pact/api/v1/…`: `/local`, `/send`, `/poll`,
 * `/spv`) typed over the one node client (`nodeClient.ts`), with its failure values. Replies
 * are read as exact JSON, so no number in a result goes through a double.
 * @module
 */
import type { Command } from "../../../src-node/command/commandTypes.ts";
import { type JsonValue, readJsonExact } from "../../../src-node/command/exactJson.ts";
import type { ClientResult } from "./clientError.ts";
import {
  type CommandResultView,
  type PreflightView,
  parseCommandResult,
  parsePollResults,
  parsePreflight,
  parseRequestKeys,
} from "./commandResult.ts";
import type { Decoded } from "./decode.ts";
import { type NodeClient, type NodePath, readReply } from "./nodeClient.ts";

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

/** The command endpoints over `client` (no connection of their own). */
export function createPactClient(client: Pick<NodeClient, "request" | "url">): PactClient {
  const path = (chainId: number, endpoint: string): NodePath =>
    `/chain/${chainId}/pact/api/v1/${endpoint}`;
  const post = async <T>(
    target: NodePath,
    body: unknown,
    parse: (raw: JsonValue) => Decoded<T>,
    timeoutMs?: number,
  ): Promise<ClientResult<T>> => {
    const text = await client.request("POST", target, {
      body,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    return readReply(text, client.url(target), (t) => {
      const json = readJsonExact(t);
      return json.ok ? parse(json.value) : { ok: false, error: "not JSON" };
    });
  };
  return {
    local: (chainId, command) =>
      post(path(chainId, "local?signatureVerification=false"), command, parseCommandResult),
    preflight: (chainId, command) =>
      post(
        path(chainId, "local?preflight=true&signatureVerification=true"),
        command,
        parsePreflight,
      ),
    send: (chainId, commands) => post(path(chainId, "send"), { cmds: commands }, parseRequestKeys),
    poll: (chainId, requestKeys) => post(path(chainId, "poll"), { requestKeys }, parsePollResults),
    spv: (chainId, requestKey, targetChainId, waitMs = 60_000) =>
      post(
        path(chainId, "spv"),
        { requestKey, targetChainId: String(targetChainId) },
        (raw) =>
          typeof raw === "string" && raw !== ""
            ? { ok: true, value: raw }
            : { ok: false, error: "the proof is not a string" },
        waitMs,
      ),
  };
}
