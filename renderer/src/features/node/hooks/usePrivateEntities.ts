/**
 * This node's `/private` entity and the entities it trusts (`/app/api/private`, polled),
 * and the "trust this entity" steps: check a key (its fingerprint shown, nothing stored),
 * pin it, remove an app pin; the list refreshes after a pin or a removal.
 * @module
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { clientErrorOf, unwrap } from "../../../api/clientFailure.ts";
import type { NodeClient } from "../../../api/nodeClient.ts";
import { parsePin, parsePinCheck, parsePrivateEntities } from "../../../api/privateEntities.ts";
import { useServices } from "../../../services/services.tsx";

const EVERY_MS = 5000;
const KEY = ["node", "private"] as const;

export type PinInput = { readonly name: string; readonly publicKey: string };

export function privateEntitiesQuery(client: NodeClient) {
  return queryOptions({
    queryKey: KEY,
    queryFn: () => unwrap(client.get("/app/api/private", parsePrivateEntities)),
    refetchInterval: EVERY_MS,
  });
}

export function usePrivateEntities() {
  const { client } = useServices();
  const queries = useQueryClient();
  const status = useQuery(privateEntitiesQuery(client));
  const refresh = () => queries.invalidateQueries({ queryKey: KEY });
  const check = useMutation({
    mutationFn: (pin: PinInput) =>
      unwrap(client.post("/app/api/private/trusted/check", pin, parsePinCheck)),
  });
  const trust = useMutation({
    mutationFn: (pin: PinInput) => unwrap(client.post("/app/api/private/trusted", pin, parsePin)),
    onSuccess: () => check.reset(),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (name: string) =>
      unwrap(client.delete(`/app/api/private/trusted/${encodeURIComponent(name)}`)),
    onSettled: refresh,
  });
  return {
    status,
    checked: check.data ?? null,
    check: (pin: PinInput) => check.mutate(pin),
    cancel: () => check.reset(),
    /** Pins the entity; `done` runs once it is pinned. */
    trust: (pin: PinInput, done?: () => void) =>
      trust.mutate(pin, done === undefined ? {} : { onSuccess: done }),
    remove: (name: string) => remove.mutate(name),
    busy: check.isPending || trust.isPending || remove.isPending,
    checkError: check.error === null ? null : clientErrorOf(check.error),
    trustError: trust.error === null ? null : clientErrorOf(trust.error),
    removeError: remove.error === null ? null : clientErrorOf(remove.error),
  };
}
