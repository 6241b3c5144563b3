/**
 * A boxed message beside the thing it is about: information, a warning, or an error
 * (`role="alert"`, so it is announced when it appears).
 * @module
 */
import type { ReactNode } from "react";

export type NoticeProps = {
  readonly tone: "info" | "warning" | "error";
  readonly children: ReactNode;
  readonly id?: string | undefined;
  readonly testId?: string | undefined;
};

export function Notice({ tone, children, id, testId }: NoticeProps) {
  return (
    <div
      id={id}
      className={`notice notice-${tone}`}
      role={tone === "error" ? "alert" : undefined}
      data-testid={testId}
    >
      {children}
    </div>
  );
}
