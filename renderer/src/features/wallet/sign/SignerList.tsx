/**
 * The signers of a transaction as the reviews show them ("Sign a transaction", a dapp's
 * request, a multi-signature transfer): each key, its address (`addr`) when the command gives
 * one, whether this wallet holds it (and under which name), whether it has signed, and the
 * capabilities its signature is scoped to, with every argument's numbers as written, or that it
 * is unrestricted. A request whose `addr` is not its signer's key never reaches this list: it
 * is refused when read (signRequest.ts).
 * @module
 */
import type { SigningAccount } from "../transfer/TransferFlow.tsx";
import { capabilityText } from "../transfer/transferCommand.ts";
import type { SignRequest } from "./signRequest.ts";

export function SignerList({
  request,
  accounts,
  testId,
}: {
  readonly request: SignRequest;
  readonly accounts: readonly SigningAccount[];
  readonly testId: string;
}) {
  return (
    <ol data-testid={testId}>
      {request.payload.signers.map((s, i) => {
        const held = accounts.find((a) => a.publicKey === s.pubKey.toLowerCase());
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: signers are positional
          <li key={i}>
            <code>{s.pubKey}</code>{" "}
            <strong>
              {held === undefined ? "not held by this wallet" : `held here (${held.label})`}
            </strong>
            {request.sigs[i] === null ? ", not signed yet" : ", signed"}
            {s.addr === undefined ? null : (
              <p data-testid="signer-address">
                Address <code>{s.addr}</code>: the same as its key, as it must be.
              </p>
            )}
            {s.clist.length === 0 ? (
              <p>Unrestricted: this signature allows anything the code does with this key.</p>
            ) : (
              <ul>
                {s.clist.map((c, j) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: capabilities are positional
                  <li key={j}>
                    <code>{capabilityText(c)}</code>
                  </li>
                ))}
              </ul>
            )}
          </li>
        );
      })}
    </ol>
  );
}
