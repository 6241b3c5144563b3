/**
 * The answers of the node's restart from the app (docs/desktop.md §3.4): `GET
 * /app/api/node/restart` says which launch of the node answers and whether its host can
 * restart it; `POST` asks for a restart and answers 202 with the launch id of the node about
 * to stop. The calls are the contract's entries (`appEndpoints.ts`: `restartStatus`,
 * `restart`), made by the restart watch (`services/restartWatch.ts`).
 * @module
 */
import { boolean, type Decoded, decode, record, string } from "./decode.ts";

export type RestartStatus = {
  /** New for every start of the node. */
  readonly launchId: string;
  /** Whether the node's host can restart it (the desktop and `npm start -- --headless`). */
  readonly restartable: boolean;
};

/** A 202 that starts a restart: the launch id of the node that is about to stop. */
export type RestartAccepted = { readonly launchId: string };

export function parseRestartStatus(raw: unknown): Decoded<RestartStatus> {
  return decode(raw, (x) => {
    const o = record(x, "restart");
    return {
      launchId: string(o.launchId, "launchId"),
      restartable: boolean(o.restartable, "restartable"),
    };
  });
}

export function parseRestartAccepted(raw: unknown): Decoded<RestartAccepted> {
  return decode(raw, (x) => ({ launchId: string(record(x, "restart").launchId, "launchId") }));
}
