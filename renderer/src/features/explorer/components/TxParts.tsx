/**
 * The parts of a transaction both the block page and the transaction page show: its
 * command (sender, code or continuation, signers and their capabilities, gas terms), its
 * result (success or failure in words, the value or error) and its events, one per line.
 * @module
 */
import { Link } from "@tanstack/react-router";
import { shortAccountName } from "../../../format/accountName.ts";
import { formatInteger } from "../../../format/number.ts";
import { CopyButton } from "../../../ui/CopyButton.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { eventText, formatSeconds } from "../model.ts";
import type { TxCommand, TxEvent, TxResult } from "../wire/transactions.ts";

export function AccountLink({
  name,
  short = false,
}: {
  readonly name: string;
  /**
   * Shorten a long name ("k:3688…3cca"; the full name in the tooltip), with a copy button
   * beside the link so the whole name is one press away.
   */
  readonly short?: boolean;
}) {
  if (name.length < 3) return <code>{name === "" ? "(none)" : name}</code>;
  const shown = short ? shortAccountName(name) : name;
  const link = (
    <Link
      to="/explorer/account/$name"
      params={{ name }}
      className="account-link"
      title={shown === name ? undefined : name}
    >
      <code>{shown}</code>
    </Link>
  );
  if (shown === name) return link;
  return (
    <span className="long-value">
      {link}
      <CopyButton value={name} what="account name" />
    </span>
  );
}

export function CommandFacts({ command }: { readonly command: TxCommand }) {
  return (
    <dl className="facts">
      <dt>Sender (gas payer)</dt>
      <dd>
        <AccountLink name={command.sender} />
      </dd>
      <dt>Chain</dt>
      <dd>{command.chainId}</dd>
      {command.code === null ? null : (
        <>
          <dt>Code</dt>
          <dd>
            <pre className="code" data-testid="tx-code">
              {command.code}
            </pre>
          </dd>
        </>
      )}
      {command.cont === null ? null : (
        <>
          <dt>Continues</dt>
          <dd>
            {/* The command counts steps from 0; people, and the transaction page, from 1. */}
            Step {command.cont.step + 1}
            {command.cont.rollback ? " (rollback)" : ""} of{" "}
            <Link to="/explorer/tx/$requestKey" params={{ requestKey: command.cont.pactId }}>
              <code>{command.cont.pactId}</code>
            </Link>
            {command.cont.hasProof ? ", with a cross-chain proof" : ""}
          </dd>
        </>
      )}
      {command.data === null || command.data === "{}" ? null : (
        <>
          <dt>Data</dt>
          <dd>
            <pre className="code">{command.data}</pre>
          </dd>
        </>
      )}
      <dt>Signers</dt>
      <dd>
        {command.signers.length === 0 ? (
          "none"
        ) : (
          <ul className="signers">
            {command.signers.map((s) => (
              <li key={s.pubKey}>
                <LongValue value={s.pubKey} what="public key" short />
                {s.caps.length === 0 ? (
                  <span className="hint"> unrestricted (no capabilities)</span>
                ) : (
                  <ul className="caps">
                    {s.caps.map((c) => (
                      <li key={c}>
                        <code>{c}</code>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        )}
      </dd>
      <dt>Gas limit and price</dt>
      <dd>
        {formatInteger(command.gasLimit)} at {command.gasPrice}
      </dd>
      <dt>Created</dt>
      <dd>
        {formatSeconds(command.creationTime)}, valid for {formatInteger(command.ttl)} s
      </dd>
      <dt>Network</dt>
      <dd>{command.networkId ?? "none"}</dd>
    </dl>
  );
}

export function ResultLine({ result }: { readonly result: TxResult }) {
  return (
    <p className={result.ok ? "good" : "bad"} data-testid="tx-result">
      <strong>{result.ok ? "Succeeded" : "Failed"}</strong>
      {result.value === "" ? "" : ": "}
      {result.value === "" ? null : <code className="result-value">{result.value}</code>}
      <span className="hint"> · gas {formatInteger(result.gas)}</span>
    </p>
  );
}

export function EventList({ events }: { readonly events: readonly TxEvent[] }) {
  if (events.length === 0) return <p className="hint">No events.</p>;
  return (
    <ol className="events" aria-label="Events">
      {events.map((e, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: events are an ordered, fixed list
        <li key={i}>
          <code>{eventText(e)}</code>
        </li>
      ))}
    </ol>
  );
}
