/**
 * The backup offered before the wallet is replaced: whether a backup holds this wallet's file
 * as it is now and, if none does, "Back up now" (an app backup: the node's databases and the
 * wallet's files, as the Backup page makes it), followed until it has finished. Failures are
 * said in words with the way to the Backup page.
 * @module
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { clientErrorWords, withLead } from "../../../api/errorWords.ts";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { backupStateQuery, startBackupMutation } from "../api.ts";

export function BackupOffer() {
  const { client } = useServices();
  const queries = useQueryClient();
  const state = useQuery(backupStateQuery(client));
  const start = useMutation(startBackupMutation(client, queries));
  const s = state.data;
  if (s === undefined) {
    return state.error === null ? (
      <p className="state">Checking the backups…</p>
    ) : (
      <div data-testid="wallet-backup-offer">
        <ErrorMessage
          error={withLead(
            "Whether a backup holds this wallet cannot be read: back up on the Backup page before you replace it.",
            clientErrorWords(clientErrorOf(state.error)),
          )}
        >
          <Link to="/backup">Backup page</Link>
        </ErrorMessage>
      </div>
    );
  }
  if (s.runningId !== null) {
    return (
      <Notice tone="info" testId="wallet-backup-offer">
        <p role="status">
          Backing up the node and this wallet's file… (progress on the Backup page)
        </p>
      </Notice>
    );
  }
  if (!s.due) {
    return (
      <Notice tone="info" testId="wallet-backup-offer">
        <p role="status">
          A backup holds this wallet's file as it is now (see the{" "}
          <Link to="/backup">Backup page</Link>
          ).
        </p>
      </Notice>
    );
  }
  return (
    <Notice tone="warning" testId="wallet-backup-offer">
      <p>
        No backup holds this wallet's file as it is now. Back it up first: a backup keeps the file
        as it is (still encrypted with its password), with keys the recovery phrase cannot give
        back.
      </p>
      <div className="button-row">
        <Button
          tone="primary"
          isDisabled={start.isPending}
          onPress={() => start.mutate(s.includeState)}
        >
          Back up now
        </Button>
      </div>
      {start.error === null ? null : (
        <ErrorMessage
          error={withLead(
            "The backup did not start.",
            clientErrorWords(clientErrorOf(start.error)),
          )}
        >
          <Link to="/backup">Backup page</Link>
        </ErrorMessage>
      )}
    </Notice>
  );
}
