/**
 * The node's peers for the peers panel: the polled list and sync status
 * (`/app/api/peers`), and adding or removing a peer (the list refreshes after either).
 * @module
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { clientErrorOf, unwrap } from "../../../api/clientFailure.ts";
import type { NodeClient } from "../../../api/nodeClient.ts";
import { useServices } from "../../../services/services.tsx";

const PEERS_EVERY_MS = 2000;
const PEERS_KEY = ["node", "peers"] as const;

export function peersQuery(client: NodeClient) {
  return queryOptions({
    queryKey: PEERS_KEY,
    queryFn: () => unwrap(client.peers()),
    refetchInterval: PEERS_EVERY_MS,
  });
}

export function usePeers() {
  const { client } = useServices();
  const queries = useQueryClient();
  const status = useQuery(peersQuery(client));
  const refresh = () => queries.invalidateQueries({ queryKey: PEERS_KEY });
  const add = useMutation({
    mutationFn: (address: string) => unwrap(client.addPeer(address)),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (address: string) => unwrap(client.removePeer(address)),
    onSettled: refresh,
  });
  return {
    status,
    /** Adds a peer; `onAdded` runs once the node took it (a refused address stays typed). */
    add: (address: string, onAdded?: () => void) =>
      add.mutate(address, onAdded === undefined ? undefined : { onSuccess: onAdded }),
    remove: (address: string) => remove.mutate(address),
    busy: add.isPending || remove.isPending,
    addError: add.error === null ? null : clientErrorOf(add.error),
    removeError: remove.error === null ? null : clientErrorOf(remove.error),
  };
}
