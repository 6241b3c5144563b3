/**
 * An address inside the app that names no page.
 * @module
 */
import { Link, useLocation } from "@tanstack/react-router";
import { PageTitle } from "../ui/PageTitle.tsx";

export function NotFoundPage() {
  const path = useLocation({ select: (l) => l.pathname });
  return (
    <>
      <PageTitle>Page not found</PageTitle>
      <p className="lead">
        There is no page at <code data-testid="missing-path">#{path}</code>.
      </p>
      <p>
        Go to the <Link to="/node">Node page</Link> or the <Link to="/explorer">Explorer</Link>.
      </p>
    </>
  );
}
