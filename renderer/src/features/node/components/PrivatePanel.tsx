/**
 * The node's `/private` entities (docs/private.md "The Node page"): this node's entity, its
 * public key (what other nodes pin) and fingerprint; the entities it trusts, each pinned to
 * a key, from the configuration or added here (removable); "Trust an entity": a name and a
 * public key, checked first so the fingerprint can be compared with the one the entity's own
 * Node page shows, then pinned; and each party set's private chain with whether the other
 * parties are in step (two senders' commands that crossed show as diverged). Uses the
 * app-private routes /app/api/private.
 * @module
 */
import { type FormEvent, useState } from "react";
import {
  type ClientError,
  ClientErrorCode,
  describeClientError,
} from "../../../api/clientError.ts";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import type { EntityPin, PrivateChain } from "../../../api/privateEntities.ts";
import { formatInteger } from "../../../format/number.ts";
import { Button } from "../../../ui/Button.tsx";
import { DataTable } from "../../../ui/DataTable.tsx";
import { ErrorNotice } from "../../../ui/ErrorNotice.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { usePrivateEntities } from "../hooks/usePrivateEntities.ts";
import { isForbiddenHere } from "../model.ts";

/** The node's own words for a refused pin (it names the field), else the general text. */
function refusalText(e: ClientError): string {
  if (e.code === ClientErrorCode.HttpStatus && e.message !== null && e.status < 500) {
    return e.message.replace(/^(name|publicKey): /, "");
  }
  return describeClientError(e);
}

function fieldOf(e: ClientError | null): "name" | "publicKey" | null {
  if (e?.code !== ClientErrorCode.HttpStatus || e.message === null) return null;
  if (e.message.startsWith("publicKey:")) return "publicKey";
  return "name";
}

function pinnedBy(p: EntityPin): string {
  if (p.source === "configuration") return "configuration";
  return p.addedAt === null
    ? "this page"
    : `this page, ${new Date(p.addedAt).toLocaleDateString()}`;
}

function chainState(c: PrivateChain): string {
  if (c.checks.length === 0) return "Not compared yet";
  return c.checks
    .map((k) =>
      k.result === "in-step"
        ? `In step with ${k.entity}`
        : k.result === "behind"
          ? `Behind ${k.entity} (${formatInteger(k.theirSteps)} steps there, ${formatInteger(k.ourSteps)} here)`
          : `Diverged from ${k.entity}`,
    )
    .join("; ");
}

export function PrivatePanel() {
  const p = usePrivateEntities();
  const [name, setName] = useState("");
  const [publicKey, setPublicKey] = useState("");
  const loadError = p.status.status === "error" ? clientErrorOf(p.status.error) : null;
  const s = p.status.data;
  const pin = { name: name.trim(), publicKey: publicKey.trim() };
  const formError = p.checkError ?? p.trustError;
  const errorField = fieldOf(formError);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pin.name === "" || pin.publicKey === "") return;
    p.check(pin);
  };
  const confirm = () =>
    p.trust(pin, () => {
      setName("");
      setPublicKey("");
    });
  const shown =
    p.checked !== null && p.checked.name === pin.name && p.checked.publicKey === pin.publicKey;
  return (
    <Panel id="private" title="Private entities">
      {s === undefined && loadError === null ? <p>Loading the private entities…</p> : null}
      {loadError === null ? null : isForbiddenHere(loadError) ? (
        <Notice tone="info">
          <p>Private entities can be seen and changed only on the computer that runs the node.</p>
        </Notice>
      ) : (
        <ErrorNotice
          error={loadError}
          what="the private entities"
          onRetry={() => void p.status.refetch()}
        />
      )}
      {s === undefined ? null : (
        <>
          <dl className="facts">
            <dt>This node's entity</dt>
            <dd data-testid="own-entity">
              {s.entity ??
                "None: start the node with --entity NAME to send and receive private commands."}
            </dd>
            <dt>Public key</dt>
            <dd>
              <LongValue value={s.publicKey} what="public key" testId="own-public-key" />
            </dd>
            <dt>Fingerprint</dt>
            <dd>
              <code data-testid="own-fingerprint">{s.fingerprint}</code>
            </dd>
          </dl>
          {s.diverged ? (
            <Notice tone="error" testId="private-diverged">
              <p>
                <strong>The parties' histories differ.</strong> Two senders' commands reached them
                in different orders, so their private states may not agree. Agree with the other
                parties on which history stands before relying on it.
              </p>
            </Notice>
          ) : null}
          {s.trusted.length === 0 ? (
            <p data-testid="no-trusted">
              No trusted entities yet: this node can address no other entity and accepts private
              commands from none.
            </p>
          ) : (
            <DataTable
              id="trusted-table"
              caption="Trusted entities"
              fold
              rows={s.trusted}
              rowKey={(t) => t.name}
              columns={[
                { header: "Entity", cell: (t) => t.name },
                {
                  header: "Fingerprint",
                  cell: (t) => <code title={t.publicKey}>{t.fingerprint}</code>,
                },
                { header: "Pinned by", cell: pinnedBy },
                {
                  header: "",
                  cell: (t) =>
                    t.source === "app" ? (
                      <Button
                        size="sm"
                        isDisabled={p.busy}
                        onPress={() => p.remove(t.name)}
                        aria-label={`Stop trusting ${t.name}`}
                      >
                        Remove
                      </Button>
                    ) : null,
                },
              ]}
            />
          )}
          {p.removeError === null ? null : <ErrorNotice error={p.removeError} what="the removal" />}
          <form className="inline-form" onSubmit={submit} aria-label="Trust an entity">
            <h3>Trust an entity</h3>
            <TextField
              label="Entity name"
              value={name}
              onChange={setName}
              error={errorField === "name" && formError !== null ? refusalText(formError) : null}
            />
            <TextField
              label="Public key"
              hint="As the entity's node shows it: printed at its start and on its Node page"
              value={publicKey}
              onChange={setPublicKey}
              error={
                errorField === "publicKey" && formError !== null ? refusalText(formError) : null
              }
            />
            {formError !== null && errorField === null ? (
              <Notice tone="error">
                <p>{refusalText(formError)}</p>
              </Notice>
            ) : null}
            {shown && p.checked !== null ? (
              <Notice tone="warning" testId="pin-fingerprint">
                <p>
                  Fingerprint of this key: <code>{p.checked.fingerprint}</code>
                </p>
                <p>
                  Compare it with the fingerprint on {p.checked.name}'s Node page before you trust
                  it: {p.checked.name} will read every private command addressed to it, and commands
                  signed with this key will run here as {p.checked.name}'s.
                </p>
                <div className="row-actions">
                  <Button tone="primary" isDisabled={p.busy} onPress={confirm}>
                    Trust entity
                  </Button>
                  <Button isDisabled={p.busy} onPress={p.cancel}>
                    Cancel
                  </Button>
                </div>
              </Notice>
            ) : (
              <div className="row-actions">
                <Button
                  type="submit"
                  isDisabled={p.busy || pin.name === "" || pin.publicKey === ""}
                >
                  Check key
                </Button>
              </div>
            )}
          </form>
          {s.chains.length === 0 ? (
            <p>No private commands yet.</p>
          ) : (
            <DataTable
              id="private-chains"
              caption="Private chains"
              fold
              rows={s.chains}
              rowKey={(c) => `${c.chainId}:${c.parties.join(",")}`}
              columns={[
                { header: "Chain", numeric: true, cell: (c) => String(c.chainId) },
                { header: "Parties", cell: (c) => c.parties.join(", ") },
                { header: "Steps", numeric: true, cell: (c) => formatInteger(c.steps) },
                {
                  header: "Digest",
                  cell: (c) => <LongValue value={c.digest} what="digest" short />,
                },
                { header: "Other parties", cell: chainState },
              ]}
            />
          )}
        </>
      )}
    </Panel>
  );
}
