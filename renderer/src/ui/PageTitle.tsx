/**
 * The page's heading and the document title ("Node · Weft"). The heading can take focus
 * (not in the tab order), so that moving to a page puts keyboard and screen-reader users at
 * its start (the shell focuses it after each navigation); it shows no focus box.
 * @module
 */
import { useEffect } from "react";

export const pageTitleId = "page-title";

export function PageTitle({ children }: { readonly children: string }) {
  useEffect(() => {
    document.title = `${children} · Weft`;
  }, [children]);
  return (
    <h1 id={pageTitleId} tabIndex={-1} className="page-title">
      {children}
    </h1>
  );
}
