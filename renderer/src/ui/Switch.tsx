/**
 * An on/off switch (React Aria: a real `role="switch"` checkbox named by its label).
 * The state text ("On"/"Off") is shown beside it, not inside the accessible name.
 * @module
 */
import { Switch as AriaSwitch } from "react-aria-components";

export type SwitchProps = {
  readonly label: string;
  readonly isSelected: boolean;
  readonly onChange: (selected: boolean) => void;
  readonly isDisabled?: boolean;
  /** Refuses changes but keeps focus (while a change is on its way; disabling would drop it). */
  readonly isReadOnly?: boolean;
  readonly "aria-describedby"?: string;
};

export function Switch({ label, ...props }: SwitchProps) {
  return (
    <AriaSwitch {...props} className="switch">
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      <span className="switch-label">{label}</span>
    </AriaSwitch>
  );
}
