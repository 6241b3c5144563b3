/**
 * The app API's endpoints as the UI calls them, whole (issue 37): every route of the shared
 * table (src-node/appContract/appRoutes.ts: method, route, query parameters, body type) with
 * the parser of its reply (`api/endpoint.ts`). The entries sit beside their parsers (shared
 * ones in `api/appEndpoints.ts`, a feature's in its `endpoints.ts`); only here, where the app
 * puts the features together, are they one list. test/renderer/endpointContract.test.ts fails
 * when a route of the table has no entry here, or more than one, or when a real node's answer
 * does not parse.
 * @module
 */
import { sharedEndpoints } from "../api/appEndpoints.ts";
import type { AnyEndpoint } from "../api/endpoint.ts";
import { backupEndpoints } from "../features/backup/endpoints.ts";
import { explorerEndpoints } from "../features/explorer/endpoints.ts";
import { walletEndpoints } from "../features/wallet/endpoints.ts";

export const appEndpoints = {
  ...sharedEndpoints,
  explorer: explorerEndpoints,
  backup: backupEndpoints,
  wallet: walletEndpoints,
};

/** Every entry, once. */
export const APP_ENDPOINTS: readonly AnyEndpoint[] = [
  ...Object.values(sharedEndpoints),
  ...Object.values(explorerEndpoints),
  ...Object.values(backupEndpoints),
  ...Object.values(walletEndpoints),
];
