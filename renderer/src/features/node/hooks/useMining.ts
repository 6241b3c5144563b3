/**
 * The built-in miner for the Node page: its polled state, and changes (on/off, mine on demand,
 * threads, reward account) whose refusal stays until the next change succeeds or the user
 * dismisses it.
 * @module
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { useServices } from "../../../services/services.tsx";
import { miningQuery, setMiningMutation } from "../api.ts";
import { type MiningRefusal, miningRefusal } from "../model.ts";

export function useMining() {
  const { client } = useServices();
  const queries = useQueryClient();
  const status = useQuery(miningQuery(client));
  const change = useMutation(setMiningMutation(client, queries));
  const refusal: MiningRefusal | null =
    change.error === null ? null : miningRefusal(clientErrorOf(change.error), status.data);
  return {
    status,
    setEnabled: (enabled: boolean) => change.mutate({ enabled }),
    setOnDemand: (onDemand: boolean) => change.mutate({ onDemand }),
    setThreads: (threads: number) => change.mutate({ threads }),
    setAccount: (account: string, publicKeys: readonly string[]) =>
      change.mutate(publicKeys.length === 0 ? { account } : { account, publicKeys }),
    busy: change.isPending,
    refusal,
    dismissRefusal: change.reset,
  };
}
