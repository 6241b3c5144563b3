/**
 * A keyset guard in a tight place (a table's cell): "keys-all of 2 keys:" then each public
 * key shortened, the whole key in its tooltip and its copy button. Reviews of what is signed
 * show keys whole instead.
 * @module
 */
import { LongValue } from "./LongValue.tsx";

export function Keyset({
  pred,
  keys,
}: {
  readonly pred: string;
  readonly keys: readonly string[];
}) {
  return (
    <span className="guard">
      <span>
        {pred} of {keys.length === 1 ? "1 key" : `${keys.length} keys`}:
      </span>
      {keys.map((k) => (
        <LongValue key={k} value={k} what="public key" short />
      ))}
    </span>
  );
}
