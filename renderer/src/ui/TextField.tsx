/**
 * A text field with its label, an optional hint and an error message tied to it (React
 * Aria: `aria-describedby`, `aria-invalid`). The parent owns the value and the error; an
 * error from the node shows its sentence as the field's message and its technical part
 * behind "Details" under it (ui/ErrorMessage.tsx).
 * @module
 */
import { TextField as AriaTextField, FieldError, Input, Label, Text } from "react-aria-components";
import { errorWordsOf, type ShownError } from "../api/errorWords.ts";
import { ErrorDetails } from "./ErrorMessage.tsx";

export type TextFieldProps = {
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** Shown under the field while set; marks the field invalid. */
  readonly error?: ShownError | null;
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
  const words = error === null ? null : errorWordsOf(error);
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
      <FieldError className="field-error">{words?.text}</FieldError>
      {words === null ? null : <ErrorDetails details={words.details} />}
    </AriaTextField>
  );
}
