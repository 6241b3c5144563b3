/**
 * Choosing a password: "Password" and "Confirm" (the same again), with the problem shown
 * once the user tries to go on.
 * @module
 */
import { newPasswordProblem } from "../vault/vaultMessages.ts";
import { PasswordField } from "./WalletFields.tsx";

export type NewPasswordValue = { readonly password: string; readonly again: string };

export function NewPassword({
  value,
  onChange,
  showProblem,
  label = "Password",
}: {
  readonly value: NewPasswordValue;
  readonly onChange: (v: NewPasswordValue) => void;
  readonly showProblem: boolean;
  readonly label?: string;
}) {
  const problem = showProblem ? newPasswordProblem(value.password, value.again) : null;
  return (
    <>
      <PasswordField
        label={label}
        value={value.password}
        onChange={(password) => onChange({ ...value, password })}
        hint="At least 8 characters. It encrypts your wallet on this computer; it cannot be recovered."
      />
      <PasswordField
        label="Confirm"
        value={value.again}
        onChange={(again) => onChange({ ...value, again })}
        hint="The same password again."
        error={problem}
      />
    </>
  );
}
