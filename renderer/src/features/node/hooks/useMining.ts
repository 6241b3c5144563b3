/**
 * The built-in miner for the Node page: its polled state, and changes (on/off, mine on demand,
 * threads, reward account) whose refusal stays until the next change succeeds or the user
 * dismisses it.
 * @module
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { clientErrorOf, unwrap } from "../../../api/clientFailure.ts";
import type { MiningChange } from "../../../api/miningStatus.ts";
import { queryKeys } from "../../../services/queryClient.ts";
import { useServices } from "../../../services/services.tsx";
import { miningQuery } from "../api.ts";
import { type MiningRefusal, miningRefusal } from "../model.ts";

export function useMining() {
  const { client } = useServices();
  const queries = useQueryClient();
  const status = useQuery(miningQuery(client));
  const change = useMutation({
    mutationFn: (c: MiningChange) => unwrap(client.setMining(c)),
    onSuccess: (next) => queries.setQueryData(queryKeys.mining, next),
    // A refusal can still have changed something (e.g. threads): show the node's truth.
    onError: () => queries.invalidateQueries({ queryKey: queryKeys.mining }),
  });
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
