/**
 * The wallet's own form fields (the shared TextField has no password or multi-line mode):
 * a password field and the recovery phrase's text area, labelled for assistive technology
 * and the end-to-end tests. Their values stay in the form that owns them and are cleared
 * when it is done; nothing here is stored.
 * @module
 */
import {
  TextField as AriaTextField,
  FieldError,
  Input,
  Label,
  Text,
  TextArea,
} from "react-aria-components";

type FieldProps = {
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly error?: string | null;
  readonly hint?: string;
  readonly autoFocus?: boolean;
};

export function PasswordField({
  label,
  value,
  onChange,
  error = null,
  hint,
  autoFocus,
}: FieldProps) {
  return (
    <AriaTextField
      value={value}
      onChange={onChange}
      type="password"
      isInvalid={error !== null}
      validationBehavior="aria"
      className="field"
      autoFocus={autoFocus ?? false}
    >
      <Label className="field-label">{label}</Label>
      <Input className="input" autoComplete="off" spellCheck={false} />
      {hint === undefined ? null : (
        <Text slot="description" className="field-hint">
          {hint}
        </Text>
      )}
      <FieldError className="field-error">{error}</FieldError>
    </AriaTextField>
  );
}

export function PhraseField({ label, value, onChange, error = null, hint, autoFocus }: FieldProps) {
  return (
    <AriaTextField
      value={value}
      onChange={onChange}
      isInvalid={error !== null}
      validationBehavior="aria"
      className="field"
      autoFocus={autoFocus ?? false}
    >
      <Label className="field-label">{label}</Label>
      <TextArea
        className="input phrase-input"
        rows={3}
        autoComplete="off"
        spellCheck={false}
        autoCapitalize="off"
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

/** A plain text field with an optional monospace look (keys, key files). */
export function KeyField({
  label,
  value,
  onChange,
  error = null,
  hint,
  multiline = false,
}: FieldProps & { readonly multiline?: boolean }) {
  return (
    <AriaTextField
      value={value}
      onChange={onChange}
      isInvalid={error !== null}
      validationBehavior="aria"
      className="field"
    >
      <Label className="field-label">{label}</Label>
      {multiline ? (
        <TextArea
          className="input phrase-input"
          rows={3}
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="off"
        />
      ) : (
        <Input className="input mono" autoComplete="off" spellCheck={false} autoCapitalize="off" />
      )}
      {hint === undefined ? null : (
        <Text slot="description" className="field-hint">
          {hint}
        </Text>
      )}
      <FieldError className="field-error">{error}</FieldError>
    </AriaTextField>
  );
}
