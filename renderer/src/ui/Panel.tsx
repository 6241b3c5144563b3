/**
 * A titled card: a `section` labelled by its `h2`.
 * @module
 */
import type { ReactNode } from "react";

export type PanelProps = {
  readonly id: string;
  readonly title: string;
  readonly children: ReactNode;
  /** Controls shown at the right of the title. */
  readonly actions?: ReactNode;
};

export function Panel({ id, title, children, actions }: PanelProps) {
  return (
    <section aria-labelledby={`${id}-title`} className="panel">
      <div className="panel-head">
        <h2 id={`${id}-title`}>{title}</h2>
        {actions === undefined ? null : <div className="panel-actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}
