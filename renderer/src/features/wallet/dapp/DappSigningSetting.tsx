/**
 * The wallet's setting of the dapp signing API (docs/dapp-signing.md): off by default; on, the
 * node answers Chainweaver's local signing API (`POST /v1/sign`, `/v1/quicksign`) on
 * 127.0.0.1 at the port shown (9467, Chainweaver's, unless changed), and every request opens
 * the review page. Saved by the node in `wallet/dapp-signing.json`
 * (`/app/api/wallet/dapp-signing`, read by `dappSigningQuery` and switched by
 * `setDappSigningMutation` of `../api.ts`); a port another program holds is refused with the
 * reason.
 * @module
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { clientErrorWords, withLead } from "../../../api/errorWords.ts";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { Switch } from "../../../ui/Switch.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { dappSigningQuery, setDappSigningMutation } from "../api.ts";

export function DappSigningSetting() {
  const { client } = useServices();
  const queries = useQueryClient();
  const read = useQuery(dappSigningQuery(client));
  const change = useMutation(setDappSigningMutation(client, queries));
  const status = read.data ?? null;
  // What the user typed; until then, the port the node uses.
  const [typed, setTyped] = useState<string | null>(null);
  const port = typed ?? (status === null ? "" : String(status.port));
  const [portProblem, setPortProblem] = useState<string | null>(null);
  const busy = change.isPending;
  // The last change's failure, else a failed first read (a later failed refresh keeps the panel).
  const problem =
    change.error !== null
      ? clientErrorWords(clientErrorOf(change.error))
      : status === null && read.error !== null
        ? withLead("The setting could not be read.", clientErrorWords(clientErrorOf(read.error)))
        : null;

  const apply = (enabled: boolean) => {
    const text = port.trim();
    const n = Number(text);
    if (!/^[0-9]{4,5}$/.test(text) || n < 1024 || n > 65535) {
      setPortProblem("A port between 1024 and 65535.");
      return;
    }
    setPortProblem(null);
    change.mutate({ enabled, port: n });
  };

  return (
    <Panel id="wallet-dapp-signing" title="Signing requests from dapps">
      <p>
        Web dapps ask a desktop wallet to sign through Chainweaver's signing API on this computer.
        Switched on, Weft answers it: each request opens a review naming the site that asks, and
        nothing is signed until you press Sign. Unanswered requests are refused after{" "}
        {status?.timeoutSeconds ?? 300} seconds.
      </p>
      {status === null ? (
        problem === null ? (
          <p>Loading…</p>
        ) : null
      ) : (
        <>
          <Switch
            label="Answer dapps' signing requests"
            isSelected={status.enabled}
            isReadOnly={busy}
            onChange={(on) => apply(on)}
          />
          <p data-testid="dapp-signing-state">
            {status.listening
              ? `On: listening at http://127.0.0.1:${status.port}`
              : status.enabled
                ? "On, but not listening."
                : "Off."}
          </p>
          <form
            className="lookup"
            onSubmit={(e) => {
              e.preventDefault();
              apply(status.enabled);
            }}
          >
            <TextField
              label="Signing API port"
              value={port}
              onChange={setTyped}
              inputMode="numeric"
              error={portProblem}
              hint="Dapps call 9467 (Chainweaver's) unless told otherwise."
            />
            <Button type="submit" isDisabled={busy}>
              Use this port
            </Button>
          </form>
          {status.problem === null ? null : (
            <Notice tone="warning">
              <p>{status.problem}</p>
            </Notice>
          )}
        </>
      )}
      {problem === null ? null : <ErrorMessage testId="dapp-signing-problem" error={problem} />}
    </Panel>
  );
}
