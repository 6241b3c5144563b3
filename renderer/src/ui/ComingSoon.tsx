/**
 * The honest note on a page whose content arrives in a later release: what it will show.
 * @module
 */
import type { ReactNode } from "react";
import { Notice } from "./Notice.tsx";

export function ComingSoon({ children }: { readonly children: ReactNode }) {
  return (
    <Notice tone="info" testId="coming-soon">
      <p>
        <strong>Not available yet.</strong> {children}
      </p>
    </Notice>
  );
}
