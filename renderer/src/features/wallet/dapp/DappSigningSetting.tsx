/**
 * The wallet's setting of the dapp signing API (docs/dapp-signing.md): off by default; on, the
 * node answers Chainweaver's local signing API (`POST /v1/sign`, `/v1/quicksign`) on
 * 127.0.0.1 at the port shown (9467, Chainweaver's, unless changed), and every request opens
 * the review page. Saved by the node in `wallet/dapp-signing.json`
 * (`/app/api/wallet/dapp-signing`); a port another program holds is refused with the reason.
 * @module
 */
import { useEffect, useState } from "react";
import { clientErrorWords, type ShownError, withLead } from "../../../api/errorWords.ts";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { Switch } from "../../../ui/Switch.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { type DappSigningStatus, parseDappSigningStatus } from "./dappRequests.ts";

const PATH = "wallet/dapp-signing";

export function DappSigningSetting() {
  const { client } = useServices();
  const [status, setStatus] = useState<DappSigningStatus | null>(null);
  const [port, setPort] = useState("");
  const [problem, setProblem] = useState<ShownError | null>(null);
  const [portProblem, setPortProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void client.appGet(PATH, parseDappSigningStatus).then((r) => {
      if (!live) return;
      if (!r.ok) {
        setProblem(withLead("The setting could not be read.", clientErrorWords(r.error)));
        return;
      }
      setStatus(r.value);
      setPort(String(r.value.port));
    });
    return () => {
      live = false;
    };
  }, [client]);

  const apply = async (enabled: boolean) => {
    const text = port.trim();
    const n = Number(text);
    if (!/^[0-9]{4,5}$/.test(text) || n < 1024 || n > 65535) {
      setPortProblem("A port between 1024 and 65535.");
      return;
    }
    setPortProblem(null);
    setProblem(null);
    setBusy(true);
    const r = await client.appPost(PATH, { enabled, port: n }, parseDappSigningStatus);
    setBusy(false);
    if (!r.ok) {
      setProblem(clientErrorWords(r.error));
      return;
    }
    setStatus(r.value);
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
            onChange={(on) => void apply(on)}
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
              void apply(status.enabled);
            }}
          >
            <TextField
              label="Signing API port"
              value={port}
              onChange={setPort}
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
