/**
 * The page's heading. It can take focus (but is not in the tab order), so that moving to a
 * page puts keyboard and screen-reader users at its start.
 * @module
 */
export const pageTitleId = "page-title";

export function PageTitle({ children }: { readonly children: string }) {
  return (
    <h1 id={pageTitleId} tabIndex={-1}>
      {children}
    </h1>
  );
}
