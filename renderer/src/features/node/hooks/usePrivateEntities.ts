/**
 * This node's `/private` entity and the entities it trusts (`/app/api/private`, polled),
 * and the "trust this entity" steps: check a key (its fingerprint shown, nothing stored),
 * pin it, remove an app pin; the list refreshes after a pin or a removal.
 * @module
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { useServices } from "../../../services/services.tsx";
import {
  checkPinMutation,
  type PinInput,
  privateEntitiesQuery,
  removePinMutation,
  trustPinMutation,
} from "../api.ts";

export function usePrivateEntities() {
  const { client } = useServices();
  const queries = useQueryClient();
  const status = useQuery(privateEntitiesQuery(client));
  const check = useMutation(checkPinMutation(client));
  const trust = useMutation({
    ...trustPinMutation(client, queries),
    onSuccess: () => check.reset(),
  });
  const remove = useMutation(removePinMutation(client, queries));
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
