/**
 * "Prepare for others to sign": a command built here but signed elsewhere (another wallet, a
 * cold machine, a co-signer), shown as unsigned SigData naming its signers, to copy or save.
 * Whoever signs it pastes it into "Sign a transaction" (here or in another wallet).
 * @module
 */
import type {
  CommandPayload,
  UnsignedCommand,
} from "../../../../../src-node/command/commandTypes.ts";
import { Button } from "../../../ui/Button.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { copyText, saveText } from "../../../ui/saveText.ts";
import { fileNameOf, serializeSignRequest, unsignedSigData } from "./signRequest.ts";

export function PreparedForOthers({
  unsigned,
  payload,
}: {
  readonly unsigned: UnsignedCommand;
  readonly payload: CommandPayload;
}) {
  const request = unsignedSigData(unsigned.cmd, unsigned.hash, payload);
  const text = serializeSignRequest(request);
  const copy = () => copyText(text, "the unsigned transaction");
  const save = () => saveText(text, fileNameOf(request), "application/json");
  return (
    <Panel id="prepared-for-others" title="Prepared for others to sign">
      <p className="break-anywhere">
        Nothing is signed. Pass this to the signers (
        {payload.signers.map((s) => s.pubKey).join(", ")}
        ); each opens it with "Sign a transaction".
      </p>
      <pre className="code" data-testid="prepared-tx">
        {text}
      </pre>
      <div className="dialog-actions">
        <Button onPress={copy}>Copy</Button>
        <Button onPress={save}>Save</Button>
      </div>
    </Panel>
  );
}
