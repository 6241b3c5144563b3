/**
 * The signers of a transaction as the reviews show them ("Sign a transaction", a dapp's
 * request, a multi-signature transfer): each key, whether this wallet holds it (and under which
 * name), whether it has signed, and the capabilities its signature is scoped to, or that it is
 * unrestricted.
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
