/**
 * The unlocked wallet's keys: each key's label, source and account, with Remove (confirmed);
 * "Lock", "Add a key" (the phrase's next index), "Import a key", "Import a test account"
 * (development and test-singleton networks only), "Change password", "Show recovery phrase",
 * "Restore or replace this wallet" (`ReplaceWallet.tsx`, through the page), and the idle time
 * after which the wallet locks itself. What restore's account discovery
 * found is reported here too.
 * @module
 */
import { useState } from "react";
import { DEV_ACCOUNT_KEYS } from "../../../../../src-node/genesis/devAccountKeys.ts";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { useVault, type VaultKey } from "../vault/useVault.ts";
import { useVaultMutation } from "../vault/useVaultMutation.ts";
import { ChangePasswordForm, ImportKeyForm, RemoveKeyForm, RevealPhraseForm } from "./KeyForms.tsx";
import { WalletDialog } from "./WalletDialog.tsx";

/** Networks whose genesis funds the published test accounts (docs/dev-accounts.md). */
const TEST_ACCOUNT_NETWORKS = new Set(["development", "test-singleton"]);

const SOURCE_TEXT: Record<VaultKey["source"], string> = {
  phrase: "recovery phrase",
  imported: "imported",
  "test-account": "test account",
};

function DiscoveryNotice() {
  const { discovery } = useVault();
  switch (discovery.status) {
    case "idle":
      return null;
    case "running":
      return (
        <Notice tone="info" testId="discovery">
          <p>Looking for accounts of keys 0–19 on every chain…</p>
        </Notice>
      );
    case "done":
      return (
        <Notice tone="info" testId="discovery">
          <p>
            {discovery.found.length === 0
              ? "No key of this phrase has an account on this network yet; key 0 was added."
              : `Found accounts for key${discovery.found.length === 1 ? "" : "s"} ${discovery.found.join(", ")}; ${discovery.found.length === 1 ? "it was" : "they were"} added.`}
          </p>
        </Notice>
      );
    case "failed":
      return (
        <ErrorMessage
          testId="discovery"
          error={`Account discovery failed: ${discovery.message} Add keys with “Add a key”.`}
        />
      );
    default: {
      const never: never = discovery;
      return never;
    }
  }
}

function IdleLockSetting() {
  const vault = useVault();
  const [minutes, setMinutes] = useState(String(vault.walletSettings.idleLockMinutes));
  const [invalid, setInvalid] = useState<string | null>(null);
  const saving = useVaultMutation({
    mutationFn: (n: number) => vault.saveWalletSettings({ idleLockMinutes: n }),
  });
  const problem = invalid ?? saving.problem;
  const saved = saving.isSuccess;
  const save = () => {
    const n = Number(minutes);
    if (!/^[0-9]{1,4}$/.test(minutes.trim()) || n < 1 || n > 1440) {
      saving.reset();
      setInvalid("Between 1 and 1440 minutes.");
      return;
    }
    setInvalid(null);
    saving.mutate(n);
  };
  return (
    <form
      className="lookup"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <TextField
        label="Lock after idle minutes"
        value={minutes}
        onChange={setMinutes}
        inputMode="numeric"
        error={problem}
        hint={saved ? "Saved." : "The wallet locks itself after this many minutes without use."}
      />
      <Button type="submit">Save</Button>
    </form>
  );
}

export function KeysPanel({ onReplace }: { readonly onReplace: () => void }) {
  const vault = useVault();
  const { config } = useServices();
  // Lock, Add a key, Import a test account: the last one's failure is shown.
  const action = useVaultMutation({ mutationFn: (run: () => Promise<void>) => run() });
  const act = (run: () => Promise<void>) => action.mutate(run);
  const problem = action.problem;
  if (vault.state.status !== "unlocked") return null;
  const keys = vault.state.keys;
  const nextTestAccount = DEV_ACCOUNT_KEYS.find(
    (d) => !keys.some((k) => k.publicKey === d.publicKey),
  );
  const nextIndex =
    Math.max(-1, ...(vault.keystore?.public.keys ?? []).map((k) => k.index ?? -1)) + 1;

  return (
    <Panel
      id="wallet-keys"
      title="Keys"
      actions={
        <Button tone="primary" onPress={() => act(vault.lock)}>
          Lock
        </Button>
      }
    >
      <DiscoveryNotice />
      <ul className="key-list">
        {keys.map((k) => (
          <li key={k.id} data-testid={`key-${k.id}`}>
            <strong>{k.label}</strong> <span className="hint">({SOURCE_TEXT[k.source]})</span>
            <LongValue value={k.account} what="account" />
            <WalletDialog
              label="Remove"
              ariaLabel={`Remove ${k.label}`}
              title={`Remove ${k.label}`}
              tone="quiet"
              size="sm"
            >
              {(close) => <RemoveKeyForm vaultKey={k} close={close} />}
            </WalletDialog>
          </li>
        ))}
      </ul>
      {problem === null ? null : <ErrorMessage error={problem} />}
      <div className="button-row">
        <Button onPress={() => act(() => vault.addPhraseKeys([nextIndex]))}>Add a key</Button>
        <WalletDialog label="Import a key" title="Import a key">
          {(close) => <ImportKeyForm close={close} />}
        </WalletDialog>
        {TEST_ACCOUNT_NETWORKS.has(config.networkId) && nextTestAccount !== undefined ? (
          <Button
            onPress={() =>
              act(() =>
                vault.importKey({
                  keyFile: "",
                  publicKey: nextTestAccount.publicKey,
                  secretKey: nextTestAccount.secretKey,
                  label: nextTestAccount.account,
                  source: "test-account",
                }),
              )
            }
          >
            Import a test account
          </Button>
        ) : null}
        <WalletDialog label="Change password" title="Change password">
          {(close) => <ChangePasswordForm close={close} />}
        </WalletDialog>
        <WalletDialog label="Show recovery phrase" title="Your recovery phrase">
          {(close) => <RevealPhraseForm close={close} />}
        </WalletDialog>
        <Button onPress={onReplace}>Restore or replace this wallet</Button>
      </div>
      {TEST_ACCOUNT_NETWORKS.has(config.networkId) ? (
        <p className="hint">
          “Import a test account” adds the next of the network's published test keys (sender00 …
          sender09, docs/dev-accounts.md): public keys, for development only.
        </p>
      ) : null}
      <IdleLockSetting />
    </Panel>
  );
}
