/**
 * The node's peers for the peers panel: the polled list and sync status
 * (`/app/api/peers`), and adding or removing a peer (the list refreshes after either).
 * @module
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { useServices } from "../../../services/services.tsx";
import { changePeerMutation, peersQuery } from "../api.ts";

export function usePeers() {
  const { client } = useServices();
  const queries = useQueryClient();
  const status = useQuery(peersQuery(client));
  const add = useMutation(changePeerMutation(client, queries, "add"));
  const remove = useMutation(changePeerMutation(client, queries, "remove"));
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
