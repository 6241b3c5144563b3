/**
 * An address inside the app that names no page.
 * @module
 */
import { PageTitle } from "../components/PageTitle.tsx";

export function NotFoundPage() {
  return (
    <>
      <PageTitle>Page not found</PageTitle>
      <p>
        There is no page at this address. Go to the <a href="#/node">Node page</a>.
      </p>
    </>
  );
}
