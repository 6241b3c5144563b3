/**
 * The node's peers (docs/p2p.md): each peer's address, its cut height, latency,
 * misbehaviour score and ban; the sync state (catching up: blocks left, rate, time left);
 * a field to add a peer (`HOST:PORT`) and a button to remove one. Uses the app-private
 * route /app/api/peers, which the node answers only for its own app on this computer.
 * @module
 */
import { type FormEvent, useState } from "react";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { clientErrorWords } from "../../../api/errorWords.ts";
import type { PeerRow, SyncState } from "../../../api/peers.ts";
import { formatDateTime } from "../../../format/dateTime.ts";
import { formatInteger } from "../../../format/number.ts";
import { Button } from "../../../ui/Button.tsx";
import { DataTable } from "../../../ui/DataTable.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { ErrorNotice } from "../../../ui/ErrorNotice.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { usePeers } from "../hooks/usePeers.ts";
import { isForbiddenHere } from "../model.ts";

function syncText(s: SyncState): string {
  if (s.state === "alone") return "No peer connected: this node runs on its own.";
  if (s.state === "synced") return "In step with its peers.";
  const left = s.secondsLeft === null ? "" : `, about ${formatInteger(s.secondsLeft)} s left`;
  return `Catching up: ${formatInteger(s.blocksLeft)} blocks left at ${formatInteger(s.blocksPerSecond)} blocks/s${left}${s.miningHeld ? "; mining waits until then" : ""}.`;
}

function stateOf(p: PeerRow): string {
  if (p.bannedUntil !== null) return `banned until ${formatDateTime(Date.parse(p.bannedUntil))}`;
  if (p.network === "refused") return "other network";
  if (p.network === "unchecked") return p.lastError === null ? "connecting" : "unreachable";
  return "connected";
}

export function PeersPanel() {
  const { status, add, remove, busy, addError, removeError } = usePeers();
  const [address, setAddress] = useState("");
  const loadError = status.status === "error" ? clientErrorOf(status.error) : null;
  const s = status.data;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (address.trim() === "") return;
    // Cleared once the node took it: a refused address stays, beside what is wrong with it.
    add(address.trim(), () => setAddress(""));
  };
  return (
    <Panel id="peers" title="Peers">
      {s === undefined && loadError === null ? <p>Loading the peers…</p> : null}
      {loadError === null ? null : isForbiddenHere(loadError) ? (
        <Notice tone="info">
          <p>Peers can be seen and changed only on the computer that runs the node.</p>
        </Notice>
      ) : (
        <ErrorNotice error={loadError} what="the peers" onRetry={() => void status.refetch()} />
      )}
      {s === undefined ? null : (
        <>
          <p data-testid="sync-state">{syncText(s.sync)}</p>
          {/* No peers: the line above says so; an empty table would only repeat it. */}
          {s.peers.length === 0 ? null : (
            <DataTable
              id="peers-table"
              caption="Peers"
              rows={s.peers}
              rowKey={(p) => p.address}
              fold
              columns={[
                { header: "Address", cell: (p) => p.address, rowHeader: true },
                { header: "State", cell: stateOf },
                {
                  header: "Cut height",
                  numeric: true,
                  cell: (p) => (p.cutHeight === null ? "—" : formatInteger(p.cutHeight)),
                },
                {
                  header: "Latency",
                  numeric: true,
                  cell: (p) => (p.latencyMs === null ? "—" : `${formatInteger(p.latencyMs)} ms`),
                },
                { header: "Score", numeric: true, cell: (p) => formatInteger(p.score) },
                {
                  header: "",
                  cell: (p) => (
                    <Button
                      size="sm"
                      isDisabled={busy}
                      onPress={() => remove(p.address)}
                      aria-label={`Remove peer ${p.address}`}
                    >
                      Remove
                    </Button>
                  ),
                },
              ]}
            />
          )}
          <form className="lookup" onSubmit={submit} aria-label="Add a peer">
            <TextField
              label="Add a peer"
              hint="HOST:PORT of another Weft node of this network"
              value={address}
              onChange={setAddress}
              error={addError === null ? null : clientErrorWords(addError)}
            />
            <Button type="submit" tone="primary" isDisabled={busy}>
              Add
            </Button>
          </form>
          {removeError === null ? null : (
            <ErrorMessage title="The peer was not removed." error={clientErrorWords(removeError)} />
          )}
        </>
      )}
    </Panel>
  );
}
