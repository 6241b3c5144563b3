/**
 * The app API's endpoints whose parsers are shared code (`api/`): the miner, the Node page's
 * status and log, the restart, peers and private entities, the one-time code of `weft app-url` (docs/desktop.md §3, docs/p2p.md,
 * docs/private.md). Each is an `endpoint.ts` entry: the route of the shared table
 * (src-node/appContract/appRoutes.ts) and its reply's parser; `app/appEndpoints.ts` lists them
 * with the features' own.
 * @module
 */
import { appRoutes } from "../../../src-node/appContract/appRoutes.ts";
import { parseAppCode } from "./appCode.ts";
import { endpoint, NO_CONTENT } from "./endpoint.ts";
import { parseMiningHistory, parseMiningStatus } from "./miningStatus.ts";
import { parseRestartAccepted, parseRestartStatus } from "./nodeRestart.ts";
import { parseNodeLog, parseNodeStatus } from "./nodeStatus.ts";
import { parsePeerRow, parsePeersStatus } from "./peers.ts";
import { parsePin, parsePinCheck, parsePrivateEntities } from "./privateEntities.ts";

export const sharedEndpoints = {
  mining: endpoint(appRoutes.mining.status, parseMiningStatus),
  setMining: endpoint(appRoutes.mining.change, parseMiningStatus),
  miningHistory: endpoint(appRoutes.mining.history, parseMiningHistory),
  nodeStatus: endpoint(appRoutes.node.status, parseNodeStatus),
  nodeLog: endpoint(appRoutes.node.log, parseNodeLog),
  restartStatus: endpoint(appRoutes.node.restartStatus, parseRestartStatus),
  restart: endpoint(appRoutes.node.restart, parseRestartAccepted),
  peers: endpoint(appRoutes.peers.list, parsePeersStatus),
  addPeer: endpoint(appRoutes.peers.add, parsePeerRow),
  removePeer: endpoint(appRoutes.peers.remove, NO_CONTENT),
  privateEntities: endpoint(appRoutes.private.entities, parsePrivateEntities),
  checkPin: endpoint(appRoutes.private.checkPin, parsePinCheck),
  pin: endpoint(appRoutes.private.pin, parsePin),
  unpin: endpoint(appRoutes.private.unpin, NO_CONTENT),
  /** `weft app-url`'s: a one-time code that opens the app in a browser (api/appCode.ts). */
  appCode: endpoint(appRoutes.app.code, parseAppCode),
};
