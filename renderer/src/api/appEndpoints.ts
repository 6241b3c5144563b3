/**
 * The app API's endpoints whose parsers are shared code (`api/`): the miner, the Node page's
 * status and log, the restart, peers and private entities, the one-time code of `weft app-url` (docs/desktop.md §3, docs/p2p.md,
 * docs/private.md). Each is an `endpoint.ts` entry; `app/appEndpoints.ts` lists them with the
 * features' own.
 * @module
 */
import { parseAppCode } from "./appCode.ts";
import { bodyType, endpoint, NO_CONTENT } from "./endpoint.ts";
import { type MiningChange, parseMiningHistory, parseMiningStatus } from "./miningStatus.ts";
import { parseRestartAccepted, parseRestartStatus } from "./nodeRestart.ts";
import { parseNodeLog, parseNodeStatus } from "./nodeStatus.ts";
import { parsePeerRow, parsePeersStatus } from "./peers.ts";
import { parsePin, parsePinCheck, parsePrivateEntities } from "./privateEntities.ts";

type Pin = { readonly name: string; readonly publicKey: string };

export const sharedEndpoints = {
  mining: endpoint({ method: "GET", route: "/app/api/mining", reply: parseMiningStatus }),
  setMining: endpoint({
    method: "POST",
    route: "/app/api/mining",
    body: bodyType<MiningChange>(),
    reply: parseMiningStatus,
  }),
  miningHistory: endpoint({
    method: "GET",
    route: "/app/api/mining/history",
    reply: parseMiningHistory,
  }),
  nodeStatus: endpoint({ method: "GET", route: "/app/api/node/status", reply: parseNodeStatus }),
  nodeLog: endpoint({
    method: "GET",
    route: "/app/api/node/log",
    query: ["level", "limit"],
    reply: parseNodeLog,
  }),
  restartStatus: endpoint({
    method: "GET",
    route: "/app/api/node/restart",
    reply: parseRestartStatus,
  }),
  restart: endpoint({
    method: "POST",
    route: "/app/api/node/restart",
    body: bodyType<Record<string, never>>(),
    reply: parseRestartAccepted,
  }),
  peers: endpoint({ method: "GET", route: "/app/api/peers", reply: parsePeersStatus }),
  addPeer: endpoint({
    method: "POST",
    route: "/app/api/peers",
    body: bodyType<{ readonly address: string }>(),
    reply: parsePeerRow,
  }),
  removePeer: endpoint({ method: "DELETE", route: "/app/api/peers/:address", reply: NO_CONTENT }),
  privateEntities: endpoint({
    method: "GET",
    route: "/app/api/private",
    reply: parsePrivateEntities,
  }),
  checkPin: endpoint({
    method: "POST",
    route: "/app/api/private/trusted/check",
    body: bodyType<Pin>(),
    reply: parsePinCheck,
  }),
  pin: endpoint({
    method: "POST",
    route: "/app/api/private/trusted",
    body: bodyType<Pin>(),
    reply: parsePin,
  }),
  unpin: endpoint({ method: "DELETE", route: "/app/api/private/trusted/:name", reply: NO_CONTENT }),
  /** `weft app-url`'s: a one-time code that opens the app in a browser (api/appCode.ts). */
  appCode: endpoint({
    method: "POST",
    route: "/app/api/app-code",
    body: bodyType<Record<string, never>>(),
    reply: parseAppCode,
  }),
};
