/**
 * A labelled native `<select>` in the field layout: the wallet's forms pick an account, a key
 * or a predicate with it. Native, so the platform's own list and keyboard work as users know.
 * @module
 */
import { useId } from "react";

export type SelectOption = { readonly value: string; readonly label: string };

export function SelectField({
  label,
  value,
  options,
  onChange,
}: {
  readonly label: string;
  readonly value: string | undefined;
  readonly options: readonly SelectOption[];
  readonly onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
