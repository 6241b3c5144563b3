/**
 * What the create and restore flows share: their props (cancel; whether the wallet they make
 * replaces the stored one, `ReplaceWallet.tsx`) and the last step, making the wallet — a first
 * wallet through the vault's `create`, a replacement through its `replace` (the node keeps the
 * old file aside).
 * @module
 */
import type { VaultActions } from "../vault/useVault.ts";

export type WalletFlowProps = {
  readonly onCancel: () => void;
  /** In place of the stored wallet (kept aside by the node): `ReplaceWallet.tsx`. */
  readonly replace?: boolean;
  /** After a replacement succeeded. */
  readonly onReplaced?: () => void;
};

/** Makes the wallet from `phrase` (null: the phrase the vault generated) with `password`. */
export async function makeWallet(
  vault: Pick<VaultActions, "create" | "replace">,
  flow: WalletFlowProps,
  password: string,
  phrase: string | null,
): Promise<void> {
  if (flow.replace !== true) return vault.create(password, phrase);
  await vault.replace(password, phrase);
  flow.onReplaced?.();
}
