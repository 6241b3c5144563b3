/**
 * Pages that arrive in later releases: a heading and a sentence on what the page will do.
 * @module
 */
import { PageTitle } from "../components/PageTitle.tsx";

export type PlaceholderPageProps = { readonly title: string; readonly purpose: string };

export function PlaceholderPage({ title, purpose }: PlaceholderPageProps) {
  return (
    <>
      <PageTitle>{title}</PageTitle>
      <p>{purpose}</p>
      <p className="hint">This page is not available yet. The Node page works now.</p>
    </>
  );
}
