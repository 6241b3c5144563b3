/**
 * A text field with its label, an optional hint and an error message tied to it (React
 * Aria: `aria-describedby`, `aria-invalid`). The parent owns the value and the error.
 * @module
 */
import { TextField as AriaTextField, FieldError, Input, Label, Text } from "react-aria-components";

export type TextFieldProps = {
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** Shown under the field while set; marks the field invalid. */
  readonly error?: string | null;
  readonly hint?: string;
  readonly isRequired?: boolean;
  readonly spellCheck?: boolean;
  readonly inputMode?: "text" | "decimal" | "numeric";
};

export function TextField({
  label,
  error = null,
  hint,
  spellCheck = false,
  inputMode,
  ...props
}: TextFieldProps) {
  return (
    <AriaTextField
      {...props}
      isInvalid={error !== null}
      validationBehavior="aria"
      className="field"
    >
      <Label className="field-label">{label}</Label>
      <Input
        className="input"
        spellCheck={spellCheck}
        autoComplete="off"
        autoCapitalize="off"
        inputMode={inputMode}
      />
      {hint === undefined ? null : (
        <Text slot="description" className="field-hint">
          {hint}
        </Text>
      )}
      <FieldError className="field-error">{error}</FieldError>
    </AriaTextField>
  );
}
