/**
 * The live chain heights for the node page: a `/cut` snapshot at start, after every
 * (re)connection of the header stream and every 30 s, with header events applied in
 * between.
 * @module
 */
import { useCallback, useEffect, useReducer, useState } from "react";
import type { ClientError } from "../api/clientError.ts";
import type { EventSourceLike, StreamState } from "../api/headerStream.ts";
import { followHeaderStream } from "../api/headerStream.ts";
import type { NodeClient } from "../api/nodeClient.ts";
import { type ChainHeights, chainHeightsReducer, emptyChainHeights } from "./chainHeights.ts";

const SNAPSHOT_EVERY_MS = 30_000;

export type LiveChainHeights = {
  readonly heights: ChainHeights;
  readonly stream: StreamState;
  /** The last snapshot failure; null once a snapshot succeeds. */
  readonly error: ClientError | null;
  readonly reload: () => void;
};

export function useChainHeights(
  client: NodeClient,
  createSource: (url: string) => EventSourceLike,
): LiveChainHeights {
  const [heights, dispatch] = useReducer(chainHeightsReducer, emptyChainHeights);
  const [stream, setStream] = useState<StreamState>("connecting");
  const [error, setError] = useState<ClientError | null>(null);

  const reload = useCallback(() => {
    const requestedAt = performance.now();
    void client.cut().then((r) => {
      if (r.ok) {
        dispatch({ type: "snapshot", cut: r.value, requestedAt });
        setError(null);
      } else {
        setError(r.error);
      }
    });
  }, [client]);

  useEffect(() => {
    reload();
    const timer = setInterval(reload, SNAPSHOT_EVERY_MS);
    const stop = followHeaderStream(
      { url: client.headerUpdatesUrl, create: createSource },
      {
        onHeader: (update) => dispatch({ type: "header", update, at: performance.now() }),
        onState: (s) => {
          setStream(s);
          if (s === "open") reload();
        },
      },
    );
    return () => {
      clearInterval(timer);
      stop();
    };
  }, [client, createSource, reload]);

  return { heights, stream, error, reload };
}
