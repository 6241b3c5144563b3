/**
 * The wallet's first run (no keystore yet): "Create a wallet" or "Restore a wallet", then
 * the chosen flow. On development and test-singleton networks a test account can be
 * imported into a new wallet too (TestAccounts.tsx offers it once a wallet exists).
 * @module
 */
import { useState } from "react";
import { Button } from "../../../ui/Button.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { CreateWallet } from "./CreateWallet.tsx";
import { RestoreWallet } from "./RestoreWallet.tsx";

export function FirstRun() {
  const [flow, setFlow] = useState<"choose" | "create" | "restore">("choose");
  if (flow === "create") return <CreateWallet onCancel={() => setFlow("choose")} />;
  if (flow === "restore") return <RestoreWallet onCancel={() => setFlow("choose")} />;
  return (
    <Panel id="wallet-first-run" title="Set up your wallet">
      <p>
        A wallet is a recovery phrase of 12 or 24 words. Your keys come from it, and it is encrypted
        with your password before it leaves this page. The node stores only the encrypted file.
      </p>
      <div className="button-row">
        <Button tone="primary" onPress={() => setFlow("create")}>
          Create a wallet
        </Button>
        <Button onPress={() => setFlow("restore")}>Restore a wallet</Button>
      </div>
    </Panel>
  );
}
