/**
 * A vault action (unlock, create, restore, import a key, change the password, show the
 * phrase …) as a mutation, the way every change in the app runs: `isPending` while it runs,
 * its failure as one sentence (`problem`, `vaultMessages.ts`). Passwords, phrases and secret
 * keys pass through these, so a settled one leaves the mutation cache as soon as its form is
 * gone (`gcTime: 0`), as the form's own state does.
 * @module
 */
import { type UseMutationOptions, useMutation } from "@tanstack/react-query";
import { vaultProblem } from "./vaultMessages.ts";

export function useVaultMutation<T, V>(
  options: Pick<UseMutationOptions<T, Error, V>, "mutationFn" | "onSuccess" | "onError">,
) {
  const m = useMutation({ ...options, gcTime: 0 });
  return { ...m, problem: m.error === null ? null : vaultProblem(m.error) };
}
